// `npm run dev`: the API (restarted on change) and Vite's dev server with hot reload, side by side.
import path from "node:path";
import { spawn } from "node:child_process";

const root = path.resolve(import.meta.dirname, "..");
const apiPort = process.env.API_PORT ?? "3001";
const children = [
  spawn(
    process.execPath,
    ["--watch-path=src/server", "--watch-path=src/contract", "src/server/main.ts"],
    {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, PORT: apiPort, LOG_LEVEL: process.env.LOG_LEVEL ?? "info" },
    },
  ),
  spawn(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js")], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, API_PORT: apiPort },
  }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) child.on("exit", stop);
