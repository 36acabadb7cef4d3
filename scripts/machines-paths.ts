// Prints a machine's shortest and simple paths as readable steps for QA: npm run machines:paths -- <id>
import { machineEntry, machineRegistry } from "../machines/index.ts";
import { describePath, pathsOf } from "./lib/machine-docs.ts";

const id = process.argv[2];
if (!id) {
  console.log(
    `usage: npm run machines:paths -- <id>\nmachines: ${machineRegistry.map((e) => e.machine.id).join(", ")}`,
  );
  process.exit(1);
}
const entry = machineEntry(id);
for (const kind of ["shortest", "simple"] as const) {
  const paths = pathsOf(entry, kind);
  console.log(`\n== ${kind} paths of ${id} (${paths.length}) ==\n`);
  paths.forEach((p, i) => console.log(`#${i + 1} ${describePath(p)}\n`));
}
