// Build helper (vite.config.ts, `firstPage`): precompressed variants the server sends by Accept-Encoding.
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";

/** Text files worth compressing; source maps are left as they are (only developer tools fetch them). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const MIN_COMPRESS_BYTES = 1024;

/** Writes `.br` (quality 11) and `.gz` (level 9) beside every text file of the build worth it. */
export async function precompress(dir: string, skip: (relative: string) => boolean = () => false) {
  const files = (await readdir(dir, { recursive: true })).filter(
    (f) => COMPRESSIBLE.test(f) && !skip(f.split(path.sep).join("/")),
  );
  await Promise.all(
    files.map(async (f) => {
      const file = path.join(dir, f);
      if ((await stat(file)).size < MIN_COMPRESS_BYTES) return;
      const data = await readFile(file);
      const [br, gz] = await Promise.all([
        promisify(brotliCompress)(data, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        promisify(gzip)(data, { level: 9 }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }),
  );
}
