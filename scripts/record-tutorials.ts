/**
 * Records the video tutorials of the education section (docs/education.md, "Recording the video
 * tutorials") from the running product: it starts the server on a built app (`--dist <dir>`, built
 * beforehand with `vite build`), with a fresh embedded database, the demo accounts and the
 * simulated market, drives headless Chromium through each tutorial's steps slowly, with a visible
 * pointer and a highlight on what it clicks or types in, and writes for each tutorial into
 * content/videos/:
 *
 *   <id>.webm      the recording, re-encoded to VP9 with ffmpeg (small, plays in every browser)
 *   <id>.jpg       the poster: a screenshot taken at the tutorial's key step
 *   <id>.en.vtt    English subtitles, one cue per step, timed by the step's own clock
 *   <id>.es.vtt    the same cues in Spanish
 *   <id>.json      the metadata (VideoFile in src/contract/education.ts), duration from ffprobe
 *
 *   node scripts/record-tutorials.ts --dist .dist [--only plans,what-if] [--port 4480] [--out dir]
 *
 * The screens are in English; the Spanish subtitles translate what is said and done.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Browser, Locator, Page } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "..");
const CHROMIUM = "/usr/bin/chromium";
const FFMPEG = "/usr/bin/ffmpeg";
const FFPROBE = "/usr/bin/ffprobe";
const SIZE = { width: 1280, height: 720 } as const;
const PASSWORD = "Demo-portfolio-2026";

// ---------------------------------------------------------------------------------------------
// What a tutorial is.

interface Caption {
  readonly en: string;
  readonly es: string;
}

interface Cue extends Caption {
  /** Seconds from the start of the recording. */
  readonly start: number;
}

interface Tutorial {
  readonly id: string;
  readonly order: number;
  readonly slug: Caption;
  readonly title: Caption;
  readonly summary: Caption;
  /** The demo account (src/server/accounts/seed.ts) whose plan the tutorial needs. */
  readonly account: string;
  /** Dictionary ids (content/dictionary/en) the video talks about. */
  readonly terms: readonly string[];
  /** Unrecorded preparation in the signed-in page (e.g. a saved portfolio); returns a value for `run`. */
  readonly prepare?: (page: Page) => Promise<string>;
  readonly run: (d: Director, prepared: string) => Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// The director: steps with captions, a pointer that moves, highlights, slow typing.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Time to read a caption: about 14 characters a second, at least 3 s. */
const readingMs = (c: Caption) => Math.max(3000, Math.max(c.en.length, c.es.length) * 70);

class Director {
  readonly cues: Cue[] = [];
  posterTaken = false;
  readonly page: Page;
  private readonly t0: number;
  private readonly posterPath: string;
  constructor(page: Page, t0: number, posterPath: string) {
    this.page = page;
    this.t0 = t0;
    this.posterPath = posterPath;
  }

  private now = () => (Date.now() - this.t0) / 1000;

  /** One step: its caption starts now, the actions run, then the step stays until it can be read. */
  async step(caption: Caption, actions: () => Promise<void> = async () => {}) {
    const started = Date.now();
    this.cues.push({ ...caption, start: this.now() });
    await actions();
    const left = readingMs(caption) - (Date.now() - started);
    if (left > 0) await sleep(left);
    await this.page
      .evaluate(() => {
        for (const el of document.querySelectorAll(".tutorial-focus"))
          el.classList.remove("tutorial-focus");
      })
      .catch(() => undefined);
  }

  /** The poster: the screen as it is now. */
  async poster() {
    await this.page.screenshot({ path: this.posterPath, type: "jpeg", quality: 82 });
    this.posterTaken = true;
  }

  async goto(url: string) {
    await this.page.goto(url);
    await this.page.waitForLoadState("networkidle").catch(() => undefined);
  }

  /** Follows an in-app address without reloading (the work in progress lives in the page). */
  async goInApp(to: string) {
    await this.page.evaluate((href) => {
      window.history.pushState(null, "", href);
      window.dispatchEvent(new PopStateEvent("popstate", { state: null }));
    }, to);
    await this.page.waitForURL((u) => u.pathname === to.split("?")[0]);
  }

  /** Scrolls an element into view smoothly, near the top. */
  async show(target: Locator, block: "start" | "center" = "start") {
    await target.waitFor();
    await target.evaluate(
      (el, b) => el.scrollIntoView({ behavior: "smooth", block: b as ScrollLogicalPosition }),
      block,
    );
    await sleep(900);
  }

  /**
   * Moves the pointer to an element and outlines it: onto its centre to click it, else to its
   * lower right corner so that the pointer does not hide what it shows.
   */
  async point(target: Locator, onto = false) {
    await target.waitFor();
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (box) {
      const x = onto ? box.x + box.width / 2 : box.x + box.width + 4;
      const y = onto ? box.y + box.height / 2 : box.y + box.height + 4;
      await this.page.mouse.move(Math.min(x, SIZE.width - 8), Math.min(y, SIZE.height - 8), {
        steps: 18,
      });
    }
    await target
      .evaluate((el) => el.classList.add("tutorial-focus"), undefined, { timeout: 2000 })
      .catch(() => undefined);
    await sleep(500);
  }

  async unpoint(target: Locator) {
    await target
      .evaluate((el) => el.classList.remove("tutorial-focus"), undefined, { timeout: 2000 })
      .catch(() => undefined);
  }

  async click(target: Locator) {
    await this.point(target, true);
    await sleep(250);
    await this.unpoint(target);
    await target.click();
  }

  /** Types a value key by key into a field (cleared first). */
  async type(target: Locator, text: string) {
    await this.point(target);
    await target.fill("");
    await target.pressSequentially(text, { delay: 110 });
    await sleep(300);
    await this.unpoint(target);
  }
}

/** A pointer that follows the mouse and a highlight style, in every page of the recording. */
const overlayScript = () => {
  const install = () => {
    if (document.getElementById("tutorial-pointer")) return;
    const style = document.createElement("style");
    style.textContent = `
      #tutorial-pointer { position: fixed; left: 0; top: 0; width: 22px; height: 22px;
        margin: -11px 0 0 -11px; border-radius: 50%; border: 3px solid #e8590c;
        background: rgba(255, 212, 59, 0.35); z-index: 2147483647; pointer-events: none;
        transition: transform 120ms ease-out; box-shadow: 0 0 0 2px rgba(255,255,255,0.8); }
      #tutorial-pointer.down { transform: scale(0.7); background: rgba(232, 89, 12, 0.6); }
      .tutorial-focus { outline: 3px solid #e8590c !important; outline-offset: 3px !important;
        border-radius: 4px; transition: outline-color 200ms; }`;
    document.head.append(style);
    const dot = document.createElement("div");
    dot.id = "tutorial-pointer";
    dot.style.transform = "translate(-100px, -100px)";
    document.body.append(dot);
    let x = -100;
    let y = -100;
    window.addEventListener(
      "mousemove",
      (e) => {
        x = e.clientX;
        y = e.clientY;
        dot.style.left = `${x}px`;
        dot.style.top = `${y}px`;
        dot.style.transform = "";
      },
      true,
    );
    window.addEventListener("mousedown", () => dot.classList.add("down"), true);
    window.addEventListener("mouseup", () => dot.classList.remove("down"), true);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", install);
  else install();
};

// ---------------------------------------------------------------------------------------------
// Shared pieces of the tutorials.

const en = {
  myPortfolios: "/en/my-account/portfolios",
  q1: "/en/create-portfolio/q1",
  scenarios: "/en/what-if/scenarios",
  choosePlan: "/en/choose-your-plan",
  billing: "/en/my-account/billing-subscription",
  optimise: "/en/optimize/choose",
  banana: "/en/banana-challenge",
  myBanana: "/en/my-account/banana-challenge",
} as const;

const button = (page: Page, name: string | RegExp, exact = true) =>
  page.getByRole("main").getByRole("button", { name, exact });
const link = (page: Page, name: string | RegExp, exact = true) =>
  page.getByRole("main").getByRole("link", { name, exact });
const block = (page: Page, id: string) => page.locator(`[data-block="${id}"]`);

/** The three questions with their defaults (stocks, EUR, balanced, 5 assets), quickly. */
async function buildQuickly(page: Page, amount = "10000", loss = "900") {
  await page.goto(en.q1);
  await page.getByLabel("Amount to invest").fill(amount);
  await button(page, "Next").click();
  await page.waitForURL(/\/create-portfolio\/q2$/);
  await page.getByLabel("Loss you could bear, in EUR").fill(loss);
  await button(page, "Next").click();
  await page.waitForURL(/\/create-portfolio\/q3$/);
  await button(page, "Build my portfolio").click();
  await page.waitForURL(/\/create-portfolio\/summary$/);
  await page.getByRole("table", { name: "Your assets" }).waitFor({ timeout: 60_000 });
}

/** Builds and saves a portfolio; answers its page's path. */
async function saveQuickly(page: Page, name: string): Promise<string> {
  await buildQuickly(page);
  await page.getByLabel("Name of the portfolio").fill(name);
  await button(page, "Save the portfolio").click();
  await link(page, "Open the portfolio").click();
  await page.waitForURL(/\/portfolio-\d+$/);
  await page.getByRole("heading", { level: 1, name }).waitFor();
  return new URL(page.url()).pathname;
}

// ---------------------------------------------------------------------------------------------
// The tutorials.

const tutorials: readonly Tutorial[] = [
  {
    id: "create-a-portfolio",
    order: 1,
    slug: { en: "create-a-portfolio", es: "crear-una-cartera" },
    title: {
      en: "Create a portfolio in three questions",
      es: "Crea una cartera en tres preguntas",
    },
    summary: {
      en: "Answer the three questions (what to invest in, the loss you could bear, your priority), read the proposed portfolio and its value at risk, change an amount and save it.",
      es: "Responde a las tres preguntas (en qué invertir, la pérdida que podrías soportar y tu prioridad), lee la cartera propuesta y su valor en riesgo, cambia un importe y guárdala.",
    },
    account: "assets-standard@demo.test",
    terms: [
      "portfolio",
      "loss-tolerance",
      "value-at-risk",
      "confidence-level",
      "volatility",
      "diversification",
      "asset-allocation",
    ],
    run: async (d) => {
      const { page } = d;
      await d.step(
        {
          en: "You are signed in with the Standard plan. Let's build a new portfolio from three questions.",
          es: "Has iniciado sesión con el plan Estándar. Vamos a construir una cartera nueva a partir de tres preguntas.",
        },
        async () => {
          await d.goto(en.myPortfolios);
          await d.click(link(page, "Create a portfolio"));
          await page.waitForURL(/\/create-portfolio\/q1$/);
        },
      );
      await d.step(
        {
          en: "Question 1: what to invest in, the currency and the amount. We keep stocks, in euros.",
          es: "Pregunta 1: en qué invertir, la divisa y el importe. Nos quedamos con acciones, en euros.",
        },
        async () => {
          await d.point(page.getByRole("group", { name: "What to invest in" }));
          await d.point(page.getByRole("group", { name: "Currency of the portfolio" }));
        },
      );
      await d.step(
        {
          en: "We type the amount to invest, 10,000 euros, and go on.",
          es: "Escribimos el importe a invertir, 10.000 euros, y seguimos.",
        },
        async () => {
          await d.type(page.getByLabel("Amount to invest"), "10000");
          await d.click(button(page, "Next"));
          await page.waitForURL(/\/create-portfolio\/q2$/);
        },
      );
      await d.step(
        {
          en: "Question 2: how much could you bear to lose in a bad month? We answer 900 euros.",
          es: "Pregunta 2: ¿cuánto podrías soportar perder en un mal mes? Respondemos 900 euros.",
        },
        async () => {
          await d.type(page.getByLabel("Loss you could bear, in EUR"), "900");
          await d.click(button(page, "Next"));
          await page.waitForURL(/\/create-portfolio\/q3$/);
        },
      );
      await d.step(
        {
          en: "Question 3: your priority and the number of assets. We keep a balanced portfolio of five assets.",
          es: "Pregunta 3: tu prioridad y el número de activos. Dejamos una cartera equilibrada de cinco activos.",
        },
        async () => {
          await d.point(page.getByRole("group", { name: "Your priority" }));
          await d.point(page.getByLabel("Number of assets"));
        },
      );
      await d.step(
        {
          en: "Build my portfolio: the engine picks the assets and the amount in each one.",
          es: "Construir mi cartera: el motor elige los activos y el importe de cada uno.",
        },
        async () => {
          await d.click(button(page, "Build my portfolio"));
          await page.waitForURL(/\/create-portfolio\/summary$/);
          await page.getByRole("table", { name: "Your assets" }).waitFor({ timeout: 60_000 });
        },
      );
      await d.step(
        {
          en: "The summary lists your assets with the amount invested in each one.",
          es: "El resumen muestra tus activos con el importe invertido en cada uno.",
        },
        async () => {
          await d.show(page.getByRole("table", { name: "Your assets" }), "center");
        },
      );
      await d.step(
        {
          en: "This is the value at risk at 95%: the loss you could see in one month out of twenty.",
          es: "Este es el valor en riesgo al 95 %: la pérdida que podrías tener uno de cada veinte meses.",
        },
        async () => {
          await d.point(page.getByTestId("live-var"));
          await d.poster();
        },
      );
      await d.step(
        {
          en: "Change an amount: the risk is measured again, and the screen says how much your change moved it.",
          es: "Cambia un importe: el riesgo se vuelve a medir y la pantalla te dice cuánto lo ha movido tu cambio.",
        },
        async () => {
          const first = page.getByRole("textbox", { name: /^Amount in / }).first();
          await d.type(first, "6000");
          await first.press("Enter");
          await page.getByTestId("live-delta").waitFor({ timeout: 30_000 });
          await d.point(page.getByTestId("live-delta"));
        },
      );
      await d.step(
        {
          en: "Give the portfolio a name and save it.",
          es: "Ponle un nombre a la cartera y guárdala.",
        },
        async () => {
          await d.type(page.getByLabel("Name of the portfolio"), "My first portfolio");
          await d.click(button(page, "Save the portfolio"));
        },
      );
      await d.step(
        {
          en: "It is saved in My portfolios. Open it to see its full analysis.",
          es: "Ya está guardada en Mis carteras. Ábrela para ver su análisis completo.",
        },
        async () => {
          await d.click(link(page, "Open the portfolio"));
          await page.waitForURL(/\/portfolio-\d+$/);
          await page.getByRole("heading", { level: 1, name: "My first portfolio" }).waitFor();
        },
      );
    },
  },
  {
    id: "read-the-risk-analysis",
    order: 2,
    slug: { en: "read-the-risk-analysis", es: "leer-el-analisis-de-riesgo" },
    title: { en: "Read the risk analysis", es: "Lee el análisis de riesgo" },
    summary: {
      en: "Go through the full analysis of a saved portfolio block by block (breakdown, diversification, returns, VaR and CVaR, risk contributions, currency risk, scores) and assess its risk against the loss you can bear.",
      es: "Recorre bloque a bloque el análisis completo de una cartera guardada (desglose, diversificación, rentabilidades, VaR y CVaR, contribuciones al riesgo, riesgo de divisa, puntuaciones) y mide su riesgo frente a la pérdida que puedes soportar.",
    },
    account: "assets-advanced@demo.test",
    terms: [
      "portfolio-breakdown",
      "diversification",
      "expected-return",
      "required-return",
      "value-at-risk",
      "conditional-value-at-risk",
      "marginal-risk-contribution",
      "euler-allocation",
      "currency-risk",
      "risk-return-score",
      "loss-tolerance",
    ],
    prepare: (page) => saveQuickly(page, "Balanced stocks"),
    run: async (d, portfolioPath) => {
      const { page } = d;
      await d.step(
        {
          en: "This is a saved portfolio. Its page holds the full analysis, block by block.",
          es: "Esta es una cartera guardada. Su página contiene el análisis completo, bloque a bloque.",
        },
        async () => {
          await d.goto(portfolioPath);
          await page.getByRole("heading", { level: 1, name: "Balanced stocks" }).waitFor();
        },
      );
      const blocks: [string, Caption][] = [
        [
          "breakdown",
          {
            en: "Breakdown: how the money is split by asset, and its tabs by sector, region and currency.",
            es: "Desglose: cómo se reparte el dinero por activo, y en sus pestañas por sector, región y divisa.",
          },
        ],
        [
          "diversification",
          {
            en: "Diversification risk: how much risk spreading the money over several assets takes away.",
            es: "Riesgo de diversificación: cuánto riesgo quita repartir el dinero entre varios activos.",
          },
        ],
        [
          "returns",
          {
            en: "Required and expected returns: what you need to earn against what the portfolio can expect.",
            es: "Rentabilidades exigida y esperada: lo que necesitas ganar frente a lo que la cartera puede esperar.",
          },
        ],
        [
          "var",
          {
            en: "VaR and CVaR: the loss in one month out of twenty, and the average loss in those bad months.",
            es: "VaR y CVaR: la pérdida de uno de cada veinte meses y la pérdida media en esos meses malos.",
          },
        ],
        [
          "component-risk-1",
          {
            en: "Component risk: how much each asset adds to the risk of the whole portfolio.",
            es: "Riesgo por componente: cuánto añade cada activo al riesgo de toda la cartera.",
          },
        ],
        [
          "component-risk-2",
          {
            en: "And each asset's share of the risk: the shares add up to the portfolio's VaR (Euler allocation).",
            es: "Y la parte del riesgo de cada activo: las partes suman el VaR de la cartera (asignación de Euler).",
          },
        ],
        [
          "currency-risk",
          {
            en: "Currency risk: what changes in exchange rates add to the risk, with the Advanced plan.",
            es: "Riesgo de divisa: lo que añaden al riesgo los cambios de los tipos de cambio, con el plan Avanzado.",
          },
        ],
        [
          "scores",
          {
            en: "Scores: the portfolio's risk and return summed up in a few marks.",
            es: "Puntuaciones: el riesgo y la rentabilidad de la cartera resumidos en unas pocas notas.",
          },
        ],
      ];
      for (const [id, caption] of blocks) {
        const target = block(page, id);
        if ((await target.count()) === 0) continue;
        await d.step(caption, async () => {
          await d.show(target);
          if (id === "var") await d.poster();
        });
      }
      await d.step(
        {
          en: "Assess its risk: compare that loss with the one you said you could bear.",
          es: "Medir su riesgo: compara esa pérdida con la que dijiste que podías soportar.",
        },
        async () => {
          await d.click(link(page, "Assess its risk"));
          await page.waitForURL(/\/assess-risk\/assessment$/);
          await page.getByTestId("assessment-words").waitFor({ timeout: 60_000 });
        },
      );
      await d.step(
        {
          en: "The assessment says it in words: what you could lose in one month out of twenty, against your limit.",
          es: "La valoración lo dice con palabras: lo que podrías perder uno de cada veinte meses, frente a tu límite.",
        },
        async () => {
          await d.point(page.getByTestId("assessment-words"));
        },
      );
      await d.step(
        {
          en: "Say you could only bear to lose 300 euros: compare again, and the risk is over your limit.",
          es: "Supón que solo pudieras soportar perder 300 euros: compara de nuevo y el riesgo supera tu límite.",
        },
        async () => {
          await d.type(page.getByLabel("The most you could bear to lose in a bad month"), "300");
          await d.click(button(page, "Compare"));
          await sleep(1500);
          await d.show(page.getByTestId("assessment-words"), "center");
        },
      );
    },
  },
  {
    id: "what-if",
    order: 3,
    slug: { en: "what-if-scenarios", es: "escenarios-que-pasaria-si" },
    title: { en: "What if the markets fall?", es: "¿Qué pasaría si caen los mercados?" },
    summary: {
      en: "Stress-test a saved portfolio: shock the stock market and interest rates yourself, then replay a real crisis, and read what each would do to its value.",
      es: "Pon a prueba una cartera guardada: aplica tú mismo una caída de la bolsa y una subida de tipos, luego repite una crisis real y mira qué le haría cada una a su valor.",
    },
    account: "assets-advanced@demo.test",
    terms: [
      "stress-test",
      "scenario-analysis",
      "interest-rate-risk",
      "ten-year-yield",
      "covid-19-crash",
      "backtesting",
      "factor-sensitivity",
    ],
    prepare: (page) => saveQuickly(page, "Balanced stocks"),
    run: async (d, portfolioPath) => {
      const { page } = d;
      await d.step(
        {
          en: "Open a saved portfolio: the what-if runs on it.",
          es: "Abre una cartera guardada: el escenario se calcula sobre ella.",
        },
        async () => {
          await d.goto(portfolioPath);
          await page.getByRole("heading", { level: 1, name: "Balanced stocks" }).waitFor();
        },
      );
      await d.step(
        {
          en: "The what-if scenarios: shock the markets, replay real crises or backtest the portfolio.",
          es: "Los escenarios ¿qué pasaría si?: sacude los mercados, repite crisis reales o haz un backtest de la cartera.",
        },
        async () => {
          await d.goInApp(en.scenarios);
          await page
            .getByRole("heading", { level: 1, name: "What-if scenarios" })
            .waitFor({ timeout: 30_000 });
          await d.point(page.getByTestId("what-if-portfolio"));
        },
      );
      await d.step(
        {
          en: "Your own shocks: the stock market falls 20%...",
          es: "Tus propios escenarios: la bolsa cae un 20 %...",
        },
        async () => {
          await d.type(page.getByRole("textbox", { name: "Stock market (%)" }), "-20");
        },
      );
      await d.step(
        {
          en: "...and the 10-year interest rate rises 1.5 percentage points.",
          es: "...y el tipo de interés a 10 años sube 1,5 puntos porcentuales.",
        },
        async () => {
          await d.type(
            page.getByRole("textbox", { name: "Interest rates (10-year yield) (pp)" }),
            "1.5",
          );
        },
      );
      await d.step(
        {
          en: "Run the what-if.",
          es: "Calculamos el escenario.",
        },
        async () => {
          await d.click(button(page, "Run the what-if"));
          await page.waitForURL(/\/what-if\/assessment$/, { timeout: 60_000 });
          await page.getByTestId("what-if-ran").waitFor({ timeout: 60_000 });
        },
      );
      await d.step(
        {
          en: "The result: what the shocks would do to the value of the portfolio.",
          es: "El resultado: lo que esos movimientos le harían al valor de la cartera.",
        },
        async () => {
          await d.show(page.getByTestId("what-if-ran"));
          await d.poster();
        },
      );
      await d.step(
        {
          en: "Asset by asset: each one moves with its sensitivity to the stock market and to rates.",
          es: "Activo a activo: cada uno se mueve según su sensibilidad a la bolsa y a los tipos.",
        },
        async () => {
          const assets = page.getByTestId("whatif-assets");
          if (await assets.count()) await d.show(assets, "center");
          else await page.mouse.wheel(0, 400);
        },
      );
      await d.step(
        {
          en: "Now a real crisis: change the what-if and pick the 2020 pandemic crash.",
          es: "Ahora una crisis real: cambiamos el escenario y elegimos el desplome de la pandemia de 2020.",
        },
        async () => {
          await d.click(link(page, "Change the what-if"));
          await page
            .getByRole("heading", { level: 1, name: "What-if scenarios" })
            .waitFor({ timeout: 30_000 });
          // A real scenario comes before your own shocks: clear them to keep the example clean.
          await page.getByRole("textbox", { name: "Stock market (%)" }).fill("");
          await page.getByRole("textbox", { name: "Interest rates (10-year yield) (pp)" }).fill("");
          const pandemic = page.getByRole("radio", { name: "The 2020 pandemic crash" });
          await d.point(pandemic);
          await pandemic.check();
          await d.unpoint(pandemic);
        },
      );
      await d.step(
        {
          en: "It replays what the markets did from February 19 to March 23, 2020.",
          es: "Repite lo que hicieron los mercados del 19 de febrero al 23 de marzo de 2020.",
        },
        async () => {
          await d.click(button(page, "Run the what-if"));
          await page.waitForURL(/\/what-if\/assessment$/, { timeout: 60_000 });
          await page.getByTestId("what-if-ran").waitFor({ timeout: 60_000 });
          await d.show(page.getByTestId("what-if-ran"));
        },
      );
      await d.step(
        {
          en: "What your portfolio would have gained or lost over those weeks, asset by asset, measured on each asset's prices.",
          es: "Lo que tu cartera habría ganado o perdido en esas semanas, activo a activo, medido con los precios de cada uno.",
        },
        async () => {
          await page.mouse.wheel(0, 350);
          await sleep(900);
        },
      );
    },
  },
  {
    id: "optimise",
    order: 4,
    slug: { en: "optimise-a-portfolio", es: "optimizar-una-cartera" },
    title: { en: "Optimise a portfolio", es: "Optimiza una cartera" },
    summary: {
      en: "Choose an optimisation level, set its options, optimise the portfolio and compare the result with the current one before adopting it.",
      es: "Elige un nivel de optimización, ajusta sus opciones, optimiza la cartera y compara el resultado con la actual antes de adoptarlo.",
    },
    account: "assets-advanced@demo.test",
    terms: [
      "mean-variance-optimisation",
      "minimum-variance-portfolio",
      "efficient-frontier",
      "volatility",
      "value-at-risk",
      "conditional-value-at-risk",
      "expected-return",
    ],
    prepare: (page) => saveQuickly(page, "Balanced stocks"),
    run: async (d, portfolioPath) => {
      const { page } = d;
      await d.step(
        {
          en: "Open a saved portfolio and press Edit: the optimisation works on the portfolio you are editing.",
          es: "Abre una cartera guardada y pulsa Editar: la optimización trabaja sobre la cartera que estás editando.",
        },
        async () => {
          await d.goto(portfolioPath);
          await page.getByRole("heading", { level: 1, name: "Balanced stocks" }).waitFor();
          await d.click(button(page, "Edit"));
          await button(page, "Save the changes").waitFor();
        },
      );
      await d.step(
        {
          en: "Optimise your portfolio: choose one of three levels; each one is part of a plan.",
          es: "Optimiza tu cartera: elige uno de los tres niveles; cada uno forma parte de un plan.",
        },
        async () => {
          await d.goInApp(en.optimise);
          await page
            .getByRole("heading", { level: 1, name: "Optimise your portfolio" })
            .waitFor({ timeout: 30_000 });
          await d.point(button(page, "Choose o1 · Optimise your assets"));
          await d.point(button(page, "Choose o2 · Build with new assets"));
          await d.point(button(page, "Choose o3 · Build with a number of assets"));
        },
      );
      await d.step(
        {
          en: "o1 keeps your assets and looks for the weights with the least risk.",
          es: "o1 mantiene tus activos y busca los pesos con el menor riesgo.",
        },
        async () => {
          await d.click(button(page, "Choose o1 · Optimise your assets"));
          await page.waitForURL(/\/optimize\/o1$/);
        },
      );
      await d.step(
        {
          en: "The maximum loss at 95% in a month starts at the 900 euros you answered in question 2.",
          es: "La pérdida máxima al 95 % en un mes parte de los 900 euros que respondiste en la pregunta 2.",
        },
        async () => {
          await d.point(page.getByLabel("Maximum loss at 95% over a month (EUR)"));
        },
      );
      await d.step(
        {
          en: "We keep the lowest risk and run the optimisation: the server solves it in a few seconds.",
          es: "Dejamos el menor riesgo y lanzamos la optimización: el servidor la resuelve en unos segundos.",
        },
        async () => {
          await d.click(button(page, /^(Run the optimisation|Optimise)$/, false));
          await page.waitForURL(/\/optimize\/summary$/, { timeout: 90_000 });
          await page
            .getByRole("heading", { level: 1, name: "Optimised portfolio" })
            .waitFor({ timeout: 90_000 });
        },
      );
      await d.step(
        {
          en: "The optimised portfolio next to the current one: volatility, VaR, CVaR and expected return.",
          es: "La cartera optimizada junto a la actual: volatilidad, VaR, CVaR y rentabilidad esperada.",
        },
        async () => {
          await d.point(page.getByTestId("optimised-volatility"));
          await d.point(page.getByTestId("optimised-var95"));
          await d.point(page.getByTestId("current-var95"));
        },
      );
      await d.step(
        {
          en: "The efficient frontier: the best expected return for each level of risk, with both portfolios marked.",
          es: "La frontera eficiente: la mejor rentabilidad esperada para cada nivel de riesgo, con las dos carteras marcadas.",
        },
        async () => {
          await d.show(page.getByRole("figure", { name: "Efficient frontier" }), "center");
          await d.poster();
        },
      );
      await d.step(
        {
          en: "From here, adopt it to put the optimised amounts into your portfolio, or open its full analysis first.",
          es: "Desde aquí, adóptala para llevar los importes optimizados a tu cartera, o abre antes su análisis completo.",
        },
        async () => {
          await d.point(button(page, /^Adopt: /, false));
          await d.point(link(page, "Full analysis of the optimised portfolio"));
        },
      );
    },
  },
  // The banana challenge's tutorial (order 5) waits for its screens: the routes
  // /my-account/banana-challenge and /banana-challenge show only their title until they land.
  {
    id: "banana-challenge",
    order: 5,
    slug: { en: "the-banana-challenge", es: "el-banana-challenge" },
    title: { en: "The banana challenge", es: "El banana challenge" },
    summary: {
      en: "Pick stocks of one region in whole shares with a budget of 10,000, meet the monkey that picked at random, and follow how you rank.",
      es: "Elige acciones de una región en títulos enteros con un presupuesto de 10.000, conoce al mono que eligió al azar y sigue tu posición en el ranking.",
    },
    account: "banana@demo.test",
    terms: ["banana-challenge", "random-portfolio", "percentile", "share"],
    run: async (d) => {
      const { page } = d;
      await d.step(
        {
          en: "The banana challenge: pick stocks, beat the monkey. First, the rules in plain words.",
          es: "El banana challenge: elige acciones y gana al mono. Primero, las reglas en pocas palabras.",
        },
        async () => {
          await d.goto(en.banana);
          await page.getByRole("heading", { level: 1, name: "Banana challenge" }).waitFor();
          await d.poster();
          await d.point(page.getByRole("heading", { name: "The rules" }));
        },
      );
      await d.step(
        {
          en: "Choose a region: Europe in euros or the USA in dollars. Each plan has places per region.",
          es: "Elige una región: Europa en euros o EE. UU. en dólares. Cada plan tiene plazas por región.",
        },
        async () => {
          await d.click(button(page, "Europe (EUR)"));
          await page.getByLabel("Name or symbol", { exact: true }).waitFor();
        },
      );
      // Two stocks: the first listed, then the cheapest, in whole shares that fill the budget.
      const auth = (await page.context().cookies()).find((c) => c.name === "auth")?.value ?? "";
      const { token } = JSON.parse(decodeURIComponent(auth)) as { token: string };
      const universe = await page.request.get(
        new URL("/api/banana/universe?region=eu", page.url()).toString(),
        { headers: { Authorization: `Bearer ${token}` } },
      );
      const { stocks } = (await universe.json()) as {
        stocks: { symbol: string; name: string; close: number }[];
      };
      const unique = stocks.filter((s) => stocks.filter((o) => o.name === s.name).length === 1);
      const cheap = [...unique].sort((a, b) => a.close - b.close)[0]!;
      const first = unique.find((s) => s.symbol !== cheap.symbol && s.close < 2000)!;
      const firstShares = Math.floor(5000 / first.close);
      const cheapShares = Math.floor((10_000 - firstShares * first.close) / cheap.close);
      await d.step(
        {
          en: "Search the region's stocks by name, exchange or sector, and add the ones you want.",
          es: "Busca las acciones de la región por nombre, bolsa o sector y añade las que quieras.",
        },
        async () => {
          const search = page.getByLabel("Name or symbol", { exact: true });
          await d.type(search, first.name);
          await d.click(button(page, `Add ${first.name}`));
          await d.type(search, cheap.name);
          await d.click(button(page, `Add ${cheap.name}`));
        },
      );
      await d.step(
        {
          en: "Shares are bought whole at the day's close. The total is checked live against the budget.",
          es: "Los títulos se compran enteros al cierre del día. El total se compara al momento con el presupuesto.",
        },
        async () => {
          await d.type(
            page.getByLabel(`Shares of ${first.name}`, { exact: true }),
            String(firstShares),
          );
          await d.type(
            page.getByLabel(`Shares of ${cheap.name}`, { exact: true }),
            String(cheapShares),
          );
          await page.keyboard.press("Tab");
          await d.point(page.getByTestId("banana-budget"));
        },
      );
      await d.step(
        {
          en: "Save: a monkey picks the same number of stocks at random, from the same region and day.",
          es: "Guarda: un mono elige al azar el mismo número de acciones, de la misma región y día.",
        },
        async () => {
          await d.click(button(page, "Save and draw my monkey"));
          await page.getByTestId("banana-saved").waitFor({ timeout: 60_000 });
          await d.point(page.getByRole("heading", { name: "The monkey's holdings" }));
        },
      );
      await d.step(
        {
          en: "Your portfolio's page: returns from the next market day, against the monkey, 10,000 more monkeys and the index.",
          es: "La página de tu cartera: rentabilidades desde el próximo día de mercado, frente al mono, a 10.000 monos más y al índice.",
        },
        async () => {
          await d.click(link(page, "Open the portfolio"));
          await page.waitForURL(/\/banana-portfolios\/portfolio-\d+$/);
          await d.point(page.getByTestId("edit-window"));
        },
      );
      await d.step(
        {
          en: "My banana challenge lists your portfolios, the places left per region and the community ranking.",
          es: "Mi banana challenge reúne tus carteras, las plazas que te quedan por región y el ranking de la comunidad.",
        },
        async () => {
          await d.goto(en.myBanana);
          await page.getByRole("heading", { level: 1, name: "My banana challenge" }).waitFor();
          await page.mouse.wheel(0, 500);
          await sleep(2000);
        },
      );
    },
  },
  {
    id: "plans",
    order: 6,
    slug: { en: "choose-your-plan", es: "elige-tu-plan" },
    title: { en: "Choose your plan", es: "Elige tu plan" },
    summary: {
      en: "Compare the plans and what each one unlocks, subscribe with a card, and find your subscription and invoices under billing.",
      es: "Compara los planes y lo que desbloquea cada uno, suscríbete con una tarjeta y encuentra tu suscripción y tus facturas en facturación.",
    },
    account: "free@demo.test",
    terms: ["portfolio", "value-at-risk", "scenario-analysis", "mean-variance-optimisation"],
    run: async (d) => {
      const { page } = d;
      await d.step(
        {
          en: "Choose your plan compares Free, Standard and Advanced: their prices and what each one unlocks.",
          es: "Elige tu plan compara Gratuito, Estándar y Avanzado: sus precios y lo que desbloquea cada uno.",
        },
        async () => {
          await d.goto(`${en.choosePlan}?product=simAssets`);
          await page.getByRole("heading", { level: 1, name: "Choose your plan" }).waitFor();
          await d.poster();
          await d.point(page.getByRole("heading", { name: "Standard", exact: true }));
          await d.point(page.getByRole("heading", { name: "Advanced", exact: true }));
        },
      );
      await d.step(
        {
          en: "Each plan lists what it includes: how many portfolios you can save, the analysis blocks, what-if and optimisation.",
          es: "Cada plan detalla lo que incluye: cuántas carteras puedes guardar, los bloques del análisis, los escenarios y la optimización.",
        },
        async () => {
          await page.mouse.wheel(0, 450);
          await sleep(2500);
          await page.evaluate(() => window.scrollTo({ top: 0, behavior: "smooth" }));
          await sleep(900);
        },
      );
      await d.step(
        {
          en: "Pay monthly or yearly: a year costs less than twelve months.",
          es: "Paga al mes o al año: un año cuesta menos que doce meses.",
        },
        async () => {
          await d.click(button(page, "Monthly"));
          await sleep(1200);
          await d.click(button(page, "Annual"));
          await sleep(1200);
          await d.click(button(page, "Monthly"));
        },
      );
      await d.step(
        {
          en: "We choose Standard, monthly.",
          es: "Elegimos el plan Estándar, mensual.",
        },
        async () => {
          await d.click(
            page
              .getByRole("listitem")
              .filter({ has: page.getByRole("heading", { name: "Standard", exact: true }) })
              .getByRole("link", { name: "Choose Standard" }),
          );
          await page.waitForURL(/\/subscribe\/confirm/);
          await page
            .getByRole("heading", { level: 1, name: "Confirm your subscription" })
            .waitFor();
        },
      );
      await d.step(
        {
          en: "Confirm: the plan starts today, when you pay. The invoice needs your name and country.",
          es: "Confirmación: el plan empieza hoy, cuando pagues. La factura necesita tu nombre y tu país.",
        },
        async () => {
          await d.point(page.getByTestId("charge-now"));
          await d.type(page.getByLabel("Name on the invoice", { exact: true }), "Mary Somerville");
          const country = page.getByLabel("Country", { exact: true });
          await d.point(country);
          await country.selectOption("ES");
          await d.unpoint(country);
        },
      );
      await d.step(
        {
          en: "Pay with a card on the payment provider's page (here, its test sandbox).",
          es: "Paga con tarjeta en la página del proveedor de pagos (aquí, su entorno de pruebas).",
        },
        async () => {
          await d.click(button(page, /^Pay .* and continue$/, false));
          await page.waitForURL(/\/sandbox\/checkout\//);
          await d.type(page.getByLabel("Card number", { exact: true }), "4242 4242 4242 4242");
          await d.type(page.getByLabel("Expiry (MM/YY)", { exact: true }), "12/39");
          await d.type(page.getByLabel("CVC", { exact: true }), "123");
        },
      );
      await d.step(
        {
          en: "Payment complete: the Standard plan is active and its features are unlocked.",
          es: "Pago realizado: el plan Estándar está activo y sus funciones, desbloqueadas.",
        },
        async () => {
          await d.click(page.getByRole("button", { name: /^Pay / }));
          await page.waitForURL(/\/payment-complete/, { timeout: 60_000 });
          await page.getByRole("heading", { level: 1, name: "Payment complete" }).waitFor();
        },
      );
      await d.step(
        {
          en: "Billing and subscription: your plan, the next charge, and your invoices to download.",
          es: "Facturación y suscripción: tu plan, el próximo cobro y tus facturas para descargar.",
        },
        async () => {
          await d.goto(en.billing);
          await page.getByRole("heading", { level: 1, name: "Billing and subscription" }).waitFor();
        },
      );
      await d.step(
        {
          en: "From here you can also change the plan or cancel it; a downgrade applies at the end of the period.",
          es: "Desde aquí también puedes cambiar de plan o cancelarlo; bajar de plan se aplica al final del periodo.",
        },
        async () => {
          const change = page.getByRole("main").getByText("Change plan", { exact: true });
          const cancel = page.getByRole("main").getByText("Cancel the plan", { exact: true });
          if (await change.count()) await d.point(change.first());
          if (await cancel.count()) await d.point(cancel.first());
        },
      );
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Server, recording, encoding, files.

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

async function startServer(dist: string, port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["src/server/main.ts"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      EDITION: "ht",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      MARKETING_SCRIPT_URL: "",
      DATABASE_URL: "",
      DIST_DIR: dist,
      API_BASE: "",
      MARKET_DATA_DIR: "",
      MARKET_AS_OF: "",
      CAPTCHA_COST: "20",
      CAPTCHA_MAX_COUNTER: "100",
    },
  });
  // Generous: on a busy machine the migrations and the simulated market take minutes.
  const deadline = Date.now() + 480_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server stopped (exit ${child.exitCode})`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return child;
    } catch {
      // not listening yet
    }
    await sleep(1000);
  }
  child.kill();
  throw new Error("the server did not answer /api/health within 8 minutes");
}

const stamp = (seconds: number) => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
};

/** WebVTT of the cues in one language: each cue lasts until the next one (the last to the end). */
export function webVtt(cues: readonly Cue[], lang: "en" | "es", duration: number): string {
  const blocks = cues.map((cue, i) => {
    const end = Math.min(cues[i + 1]?.start ?? duration, duration);
    return `${i + 1}\n${stamp(cue.start)} --> ${stamp(Math.max(end, cue.start + 0.5))}\n${cue[lang]}`;
  });
  return `WEBVTT\n\n${blocks.join("\n\n")}\n`;
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0)
    throw new Error(`${path.basename(command)} failed: ${result.stderr.slice(-2000)}`);
  return result.stdout;
}

const durationOf = (file: string) =>
  Number(
    run(FFPROBE, [
      "-v",
      "error",
      "-show_entries",
      "format=duration",
      "-of",
      "default=noprint_wrappers=1:nokey=1",
      file,
    ]).trim(),
  );

/**
 * VP9 in WebM, 15 frames a second, no sound: a minute of screen stays near 0.5-1 MB. The realtime
 * speed keeps encoding quick on a busy machine; a screen changes little from frame to frame.
 */
function encode(raw: string, out: string) {
  run(FFMPEG, [
    "-y",
    "-loglevel",
    "error",
    "-i",
    raw,
    "-an",
    "-r",
    "15",
    "-c:v",
    "libvpx-vp9",
    "-crf",
    "36",
    "-b:v",
    "0",
    "-deadline",
    "realtime",
    "-cpu-used",
    "8",
    "-row-mt",
    "1",
    "-pix_fmt",
    "yuv420p",
    out,
  ]);
}

async function record(browser: Browser, base: string, tutorial: Tutorial, outDir: string) {
  const work = mkdtempSync(path.join(os.tmpdir(), `tutorial-${tutorial.id}-`));
  try {
    // Sign in (and prepare) without recording; the recording starts signed in.
    const setup = await browser.newContext({ baseURL: base, locale: "en-US", viewport: SIZE });
    const setupPage = await setup.newPage();
    await setupPage.goto("/en/sign-in");
    await rejectCookies(setupPage);
    await setupPage.getByLabel("Email", { exact: true }).fill(tutorial.account);
    await setupPage.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await button(setupPage, "Sign in").click();
    await setupPage.waitForURL((u) => !u.pathname.endsWith("/sign-in"), { timeout: 30_000 });
    const prepared = tutorial.prepare ? await tutorial.prepare(setupPage) : "";
    const state = await setup.storageState();
    await setup.close();

    const context = await browser.newContext({
      baseURL: base,
      locale: "en-US",
      timezoneId: "Europe/Madrid",
      viewport: SIZE,
      storageState: state,
      bypassCSP: true,
      recordVideo: { dir: work, size: SIZE },
    });
    await context.addInitScript(overlayScript);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const t0 = Date.now();
    const posterPath = path.join(work, "poster.jpg");
    const director = new Director(page, t0, posterPath);
    await page.mouse.move(SIZE.width / 2, SIZE.height / 2);
    try {
      await tutorial.run(director, prepared);
      await sleep(1500);
    } catch (error) {
      await page
        .screenshot({ path: path.join(os.tmpdir(), `tutorial-${tutorial.id}-failure.png`) })
        .catch(() => undefined);
      await context.close();
      throw error;
    }
    if (!director.posterTaken) await director.poster();
    await context.close();
    const raw = readdirSync(work).find((f) => f.endsWith(".webm"));
    if (!raw) throw new Error("no recording was written");

    const video = path.join(outDir, `${tutorial.id}.webm`);
    encode(path.join(work, raw), video);
    copyFileSync(posterPath, path.join(outDir, `${tutorial.id}.jpg`));
    const duration = durationOf(video);
    const subtitles = { en: `${tutorial.id}.en.vtt`, es: `${tutorial.id}.es.vtt` };
    for (const lang of ["en", "es"] as const)
      writeFileSync(path.join(outDir, subtitles[lang]), webVtt(director.cues, lang, duration));
    const metadata = {
      id: tutorial.id,
      order: tutorial.order,
      slug: tutorial.slug,
      title: tutorial.title,
      summary: tutorial.summary,
      video: `${tutorial.id}.webm`,
      poster: `${tutorial.id}.jpg`,
      durationSeconds: Math.round(duration * 10) / 10,
      subtitles,
      terms: tutorial.terms,
    };
    writeFileSync(
      path.join(outDir, `${tutorial.id}.json`),
      `${JSON.stringify(metadata, null, 2)}\n`,
    );
    return { duration, cues: director.cues.length };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function rejectCookies(page: Page) {
  const banner = page.getByRole("dialog", { name: /^We use cookies$/ });
  try {
    await banner.waitFor({ timeout: 5000 });
    await banner.getByRole("button", { name: "Reject all" }).click();
  } catch {
    // no banner
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      dist: { type: "string" },
      only: { type: "string" },
      port: { type: "string" },
      out: { type: "string" },
    },
  });
  if (!values.dist) {
    console.error(
      "usage: node scripts/record-tutorials.ts --dist <built app> [--only id,id] [--port n] [--out dir]",
    );
    process.exit(2);
  }
  const dist = path.resolve(values.dist);
  if (!existsSync(path.join(dist, "index.html")))
    throw new Error(`${dist}/index.html is missing: build the app first (vite build --outDir …)`);
  const outDir = path.resolve(values.out ?? path.join(root, "content/videos"));
  mkdirSync(outDir, { recursive: true });
  const only = values.only ? new Set(values.only.split(",")) : null;
  const chosen = tutorials.filter((t) => !only || only.has(t.id));

  // Playwright records through its own ffmpeg build, looked up in its browsers folder; here that
  // folder is a temporary one whose ffmpeg is the system's (which has the VP8 encoder it uses).
  // The variable is read when Playwright loads, hence the import below.
  const browsers = mkdtempSync(path.join(os.tmpdir(), "tutorials-browsers-"));
  const registry = JSON.parse(
    readFileSync(path.join(root, "node_modules/playwright-core/browsers.json"), "utf8"),
  ) as { browsers: { name: string; revision: string }[] };
  const ffmpeg = registry.browsers.find((b) => b.name === "ffmpeg");
  if (!ffmpeg) throw new Error("Playwright names no ffmpeg build");
  mkdirSync(path.join(browsers, `ffmpeg-${ffmpeg.revision}`));
  symlinkSync(FFMPEG, path.join(browsers, `ffmpeg-${ffmpeg.revision}`, "ffmpeg-linux"));
  process.env.PLAYWRIGHT_BROWSERS_PATH = browsers;
  const { chromium } = await import("@playwright/test");

  const port = values.port ? Number(values.port) : await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tutorials-data-"));
  let server: ChildProcess | null = null;
  let browser: Browser | null = null;
  let failed = 0;
  try {
    server = await startServer(dist, port, dataDir);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync"],
    });
    for (const tutorial of chosen) {
      const started = Date.now();
      try {
        const { duration, cues } = await record(
          browser,
          `http://127.0.0.1:${port}`,
          tutorial,
          outDir,
        );
        console.log(
          `${tutorial.id}: ${duration.toFixed(1)} s, ${cues} cues (${Math.round((Date.now() - started) / 1000)} s)`,
        );
      } catch (error) {
        failed++;
        console.error(`${tutorial.id}: FAILED: ${(error as Error).message.split("\n")[0]}`);
      }
    }
  } finally {
    await browser?.close();
    server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(browsers, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

await main();
