// `npm run bench:load`: the server under concurrent load (docs/performance.md). Starts a server on
// this machine's loopback (the real dataset of MARKET_DATA_DIR when set, else the simulated
// market; the embedded database, or PostgreSQL with --pg URL), then runs autocannon against it:
// market/today, analyse of 10 assets and optimise of 10 assets at 64 connections, and the health
// check's latency while 8 analyses of 150 assets run. Each run is bounded in time.
//
//   npm run bench:load                          # print the figures
//   npm run bench:load -- --save before.json    # keep them as a reference
//   npm run bench:load -- --compare before.json # print them beside the reference, with ratios
//   npm run bench:load -- --root /other/checkout # load another checkout's server (same script)
//   npm run bench:load -- --only analyse         # only the cases whose name contains the text
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import autocannon from "autocannon";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const root = path.resolve(option("--root") ?? path.join(import.meta.dirname, ".."));
const seconds = Number(option("--seconds") ?? 10);
const pgUrl = option("--pg");
const marketDir = process.env.MARKET_DATA_DIR ? path.resolve(process.env.MARKET_DATA_DIR) : null;

interface Figures {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly total: number;
  /** Answers other than 2xx, by status (e.g. 503 when the queue is full). */
  readonly statuses?: Readonly<Record<string, number>>;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const dataDir = path.join(root, "data", `bench-${marketDir ? "real" : "simulated"}`);
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, [path.join(root, "src/server/main.ts")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      // The analytics calls need a session: the benchmark signs in as a demo account.
      SEED_DEMO_ACCOUNTS: "true",
      // The benchmark measures capacity, not the per-account limit (tests/server/rate-limits.test.ts).
      RATE_LIMIT_ANALYTICS_PER_MINUTE: "100000000",
      // Nor the per-account share of the workers (one account sends every call).
      ANALYTICS_PER_ACCOUNT: "100000",
      ...(marketDir ? { MARKET_DATA_DIR: marketDir } : {}),
      ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGKILL");
  throw new Error("the server did not start within 3 minutes");
}

function run(options: autocannon.Options): Promise<Figures> {
  return new Promise((resolve, reject) => {
    autocannon({ ...options, duration: options.duration ?? seconds }, (error, result) => {
      if (error) return reject(error);
      resolve({
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx,
        total: result.requests.total,
        statuses: Object.fromEntries(
          Object.entries(result.statusCodeStats ?? {})
            .filter(([code]) => !code.startsWith("2"))
            .map(([code, stat]) => [code, stat?.count ?? 0]),
        ),
      });
    });
  });
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST" as const,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

const { url, child } = await startServer();
try {
  // The same assets in every run and every version: stocks listed since 2015 at the latest, by symbol.
  const assets = (await (
    await fetch(`${url}/api/market/assets?product=simAssets&includeStale=true`)
  ).json()) as { assets: { symbol: string; firstDate: string | null }[] };
  const live = assets.assets
    .filter((a) => a.firstDate !== null && a.firstDate <= "2015-01-01")
    .map((a) => a.symbol)
    .sort();
  if (live.length < 10) throw new Error(`only ${live.length} assets with enough history`);
  const login = (await (
    await fetch(`${url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "all-advanced@demo.test", password: "Demo-portfolio-2026" }),
    })
  ).json()) as { token?: string };
  if (!login.token) throw new Error("could not sign in as the demo account");
  const auth = { authorization: `Bearer ${login.token}` };

  /**
   * Requests rotate over 32 different portfolios of `n` assets, as many users' would. An
   * optimisation states its level and the loss at 95% the investor accepts (10% of the total, above
   * the minimum desired risk), as the screens send them; without them the server refuses it (422).
   */
  const rotating = (n: number, optimise = false) => {
    const bodies = Array.from({ length: 32 }, (_, k) => {
      const assets = Array.from({ length: n }, (_, i) => ({
        symbol: live[(k * 7 + i * 13) % live.length]!,
        investedAmount: 1000 + 137 * ((k + i) % 9),
      })).filter((a, i, all) => all.findIndex((b) => b.symbol === a.symbol) === i);
      const total = assets.reduce((sum, a) => sum + a.investedAmount, 0);
      return JSON.stringify({
        currency: k % 2 ? "USD" : "EUR",
        assets,
        ...(optimise ? { level: 1, maxToLose95: Math.round(total * 0.1) } : {}),
      });
    });
    let next = 0;
    return {
      requests: [
        {
          method: "POST" as const,
          headers: { "content-type": "application/json", ...auth },
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            body: bodies[next++ % bodies.length]!,
          }),
        },
      ],
    };
  };
  const portfolio = (n: number) => ({
    currency: "EUR",
    assets: live.slice(0, n).map((symbol) => ({ symbol, investedAmount: 1000 })),
  });
  const heavy = Math.min(150, live.length);

  // Warm-up: the first requests load the market into memory and start the workers.
  await run({ url: `${url}/api/market/today`, connections: 4, duration: 2 });
  await run({
    url: `${url}/api/analytics/analyse`,
    connections: 4,
    duration: 2,
    ...json(portfolio(10), auth),
  });

  const results: Record<string, Figures> = {};
  const only = option("--only");
  const measure = async (name: string, options: autocannon.Options) => {
    if (!only || name.includes(only)) results[name] = await run(options);
  };
  await measure("GET /api/market/today (64 connections)", {
    url: `${url}/api/market/today`,
    connections: 64,
  });
  await measure("POST /api/analytics/analyse, 10 assets (64)", {
    url: `${url}/api/analytics/analyse`,
    connections: 64,
    ...rotating(10),
  });
  await measure("POST /api/analytics/optimise, 10 assets (64)", {
    url: `${url}/api/analytics/optimise`,
    connections: 64,
    ...rotating(10, true),
  });
  const healthCase = "GET /api/health while 8 analyses run (1)";
  const heavyCase = `POST /api/analytics/analyse, ${heavy} assets (8)`;
  if (!only || healthCase.includes(only) || heavyCase.includes(only)) {
    const [health, load] = await Promise.all([
      run({ url: `${url}/api/health`, connections: 1 }),
      run({ url: `${url}/api/analytics/analyse`, connections: 8, ...json(portfolio(heavy), auth) }),
    ]);
    results[healthCase] = health;
    results[heavyCase] = load;
  }

  const reference = option("--compare")
    ? (JSON.parse(readFileSync(option("--compare")!, "utf8")) as Record<string, Figures>)
    : null;
  const pad = (s: string, n: number) => s.padStart(n);
  // A reference that answered nothing (every request failed) has no ratio.
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(b < 1 ? 0 : 2) : "—");
  console.log(
    `\n${"case".padEnd(48)}${pad("req/s", 9)}${pad("p50 ms", 9)}${pad("p99 ms", 9)}${pad("errors", 8)}` +
      (reference
        ? `${pad("ref req/s", 11)}${pad("ref p99", 9)}${pad("×req/s", 9)}${pad("×p99", 8)}`
        : ""),
  );
  for (const [name, f] of Object.entries(results)) {
    const r = reference?.[name];
    console.log(
      `${name.padEnd(48)}${pad(f.requestsPerSecond.toFixed(0), 9)}${pad(f.p50.toFixed(0), 9)}${pad(f.p99.toFixed(0), 9)}${pad(String(f.errors), 8)}` +
        (r
          ? `${pad(r.requestsPerSecond.toFixed(0), 11)}${pad(r.total ? r.p99.toFixed(0) : "—", 9)}${pad(ratio(f.requestsPerSecond, r.requestsPerSecond), 9)}${pad(r.total ? ratio(f.p99, r.p99) : "—", 8)}`
          : ""),
    );
    if (f.errors > 0) {
      const statuses = Object.entries(f.statuses ?? {});
      const answered = statuses.reduce((sum, [, n]) => sum + n, 0);
      const parts = statuses.map(([code, n]) => `${n} × ${code}`);
      if (f.errors > answered) parts.push(`${f.errors - answered} time-outs or socket errors`);
      console.log(`    errors: ${parts.join(", ")}`);
    }
  }
  console.log(
    `\n${marketDir ? "real dataset" : "simulated market"}, ${pgUrl ? "PostgreSQL" : "embedded database"}, ${seconds} s per case, Node ${process.version}.`,
  );
  if (option("--save")) {
    writeFileSync(option("--save")!, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`saved to ${option("--save")}`);
  }
} finally {
  child.kill("SIGTERM");
  if (existsSync("/proc")) await new Promise((r) => setTimeout(r, 500));
  if (child.exitCode === null) child.kill("SIGKILL");
}
