// Fails when the Spanish catalog has an entry without translation (run after `npm run i18n:extract`).
import { readFileSync } from "node:fs";
import path from "node:path";

const file = path.resolve(import.meta.dirname, "../locales/es/messages.po");
const entries = readFileSync(file, "utf8").split(/\n\s*\n/);
const untranslated: string[] = [];
for (const entry of entries) {
  const id = /^msgid "(.*)"$/m.exec(entry)?.[1];
  if (id === undefined || id === "") continue;
  const translations = [...entry.matchAll(/^msgstr(?:\[\d+\])? "(.*)"$/gm)].map((m) => m[1]);
  if (translations.length === 0 || translations.some((t) => t === "")) untranslated.push(id);
}
if (untranslated.length) {
  console.error(`locales/es/messages.po: ${untranslated.length} untranslated entries:`);
  for (const id of untranslated) console.error(`  - ${id}`);
  process.exit(1);
}
console.log(`locales/es/messages.po: every entry is translated (${entries.length - 1} entries).`);
