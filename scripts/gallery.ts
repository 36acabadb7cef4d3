// `npm run gallery -- <folder> [playwright options]`: a screenshot of every route of the route table, in both languages,
// at 1280 and 390 px, in both editions, for review by eye. The route checks
// (tests/e2e/route-checks.spec.ts) open each page as the account its guards let in and save a
// full-page shot at each width when E2E_SHOTS_DIR is set; this script runs them that way and then
// writes <folder>/index.html, one section per route. Build the app first (`npx vite build`); set
// E2E_DIST_DIR / E2E_PORT as for the e2e tests. The checks' own verdicts are printed as usual.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const folder = process.argv[2];
if (!folder) {
  console.error("Usage: npm run gallery -- <output folder> (outside the repository)");
  process.exit(2);
}
const out = path.resolve(folder);
mkdirSync(out, { recursive: true });

const run = spawnSync(
  process.execPath,
  [
    path.join(root, "node_modules/@playwright/test/cli.js"),
    "test",
    "tests/e2e/route-checks.spec.ts",
    "--reporter",
    "line",
    // Anything after the folder goes to Playwright (e.g. `--project ht`, `--grep summary`).
    ...process.argv.slice(3),
  ],
  { cwd: root, stdio: "inherit", env: { ...process.env, E2E_SHOTS_DIR: out } },
);

// Shots are named <route>-<edition>-<language>-<width>.png.
const shots = readdirSync(out)
  .filter((f) => f.endsWith(".png"))
  .sort();
const byRoute = new Map<string, string[]>();
for (const file of shots) {
  const route = file.replace(/-(ht|tt)-(en|es)-\d+\.png$/, "");
  byRoute.set(route, [...(byRoute.get(route) ?? []), file]);
}
const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
const sections = [...byRoute]
  .map(
    ([route, files]) =>
      `<section><h2>${escape(route)}</h2><div class="row">${files
        .map(
          (f) =>
            `<figure><a href="${escape(f)}"><img src="${escape(f)}" alt="${escape(f)}" loading="lazy"></a><figcaption>${escape(f.slice(route.length + 1, -4))}</figcaption></figure>`,
        )
        .join("")}</div></section>`,
  )
  .join("\n");
writeFileSync(
  path.join(out, "index.html"),
  `<!doctype html><html lang="en"><meta charset="utf-8"><title>Route gallery</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem}.row{display:flex;gap:1rem;overflow-x:auto;align-items:flex-start}
figure{margin:0}img{max-height:420px;border:1px solid #ccc}figcaption{font-size:.85rem}</style>
<h1>Route gallery: ${shots.length} screenshots of ${byRoute.size} routes</h1>
${sections}
</html>
`,
);
console.log(
  `${shots.length} screenshots of ${byRoute.size} routes: ${path.join(out, "index.html")}`,
);
process.exit(run.status ?? 1);
