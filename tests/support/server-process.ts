// A real server process for tests that need one (two instances, crashes): started on a free
// loopback port with the given environment, waited for, and stopped or killed.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export interface ServerProcess {
  readonly base: string;
  readonly child: ChildProcess;
  /** The log lines the server has written to stdout so far, parsed (one JSON object each). */
  readonly log: readonly Record<string, unknown>[];
  /** Resolves once the process has exited (at once if it already has). */
  exited(): Promise<void>;
}

/** Starts `src/server/main.ts` on the simulated market with demo accounts, and waits for health. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, "src/server/main.ts")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "instance-")),
      DIST_DIR: mkdtempSync(path.join(tmpdir(), "dist-")),
      LOG_LEVEL: "error",
      SEED_DEMO_ACCOUNTS: "true",
      MARKET_DATA_DIR: "",
      SIMULATED_MARKET_END: "2026-11-20",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const log: Record<string, unknown>[] = [];
  let pending = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop()!;
    for (const line of lines)
      try {
        log.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
  });
  const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const exited = () =>
    child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : exit;
  const base = `http://127.0.0.1:${port}/api`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/health`)).ok) return { base, child, log, exited };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error("the server did not start");
}

/** Kills a server at once (no shutdown), and waits until the process is gone. */
export function killServer(server: ServerProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once("exit", () => resolve());
    server.child.kill("SIGKILL");
  });
}

export interface Answer {
  readonly status: number;
  readonly body: any;
  readonly headers: Headers;
}

/** A JSON call to a server's API; a connection lost on the way answers status 0. */
export async function apiCall(
  base: string,
  method: string,
  p: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  try {
    const res = await fetch(`${base}${p}`, {
      method,
      redirect: "manual",
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, headers: res.headers };
  } catch {
    return { status: 0, body: null, headers: new Headers() };
  }
}

export const DEMO_PASSWORD = "Demo-portfolio-2026";

export async function signIn(base: string, email: string): Promise<string> {
  const res = await apiCall(base, "POST", "/auth/login", undefined, {
    email,
    password: DEMO_PASSWORD,
  });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status}`);
  return res.body.token as string;
}
