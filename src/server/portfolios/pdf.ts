/**
 * A small PDF 1.4 writer: pages of text in Helvetica (regular and bold, WinAnsi encoding), filled
 * rectangles, lines (solid or dashed) and paths (polylines, stroked and or filled: the charts'
 * series and areas). Enough for a multi-page report with charts, without a dependency. Every string is
 * written with octal escapes above ASCII, so the file is ASCII after its binary marker and byte
 * offsets are string offsets.
 */

export const A4 = { width: 595.28, height: 841.89 } as const;

export type Rgb = readonly [number, number, number];

export interface TextOptions {
  readonly size?: number;
  readonly bold?: boolean;
  readonly color?: Rgb;
  /** x is the left edge (default), the right edge, or the centre of the text. */
  readonly align?: "left" | "right" | "center";
}

/** Helvetica advance widths (per 1000 em) of ASCII 32-126, from the standard AFM. */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
  556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
  611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
  667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
  222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** Characters of WinAnsiEncoding outside Latin-1, by code point. */
const WIN_ANSI_EXTRA: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};

/** WinAnsi codes of a text; what the encoding lacks becomes "?". */
export function winAnsi(text: string): number[] {
  const out: number[] = [];
  for (const ch of text.normalize("NFC")) {
    const cp = ch.codePointAt(0)!;
    if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) out.push(cp);
    else if (WIN_ANSI_EXTRA[cp] !== undefined) out.push(WIN_ANSI_EXTRA[cp]);
    else if (cp === 0x09) out.push(0x20);
    else out.push(0x3f);
  }
  return out;
}

/** A PDF literal string: parentheses and backslashes escaped, bytes above ASCII in octal. */
export function pdfString(text: string): string {
  let s = "(";
  for (const code of winAnsi(text)) {
    if (code === 0x28 || code === 0x29 || code === 0x5c) s += `\\${String.fromCharCode(code)}`;
    else if (code < 0x20 || code > 0x7e) s += `\\${code.toString(8).padStart(3, "0")}`;
    else s += String.fromCharCode(code);
  }
  return `${s})`;
}

/** Width of a text in points (bold is about 5% wider; accented letters as their base letter). */
export function textWidth(text: string, size: number, bold = false): number {
  let units = 0;
  for (const code of winAnsi(text.normalize("NFD").replace(/\p{M}/gu, "")))
    units += code >= 0x20 && code <= 0x7e ? HELVETICA[code - 0x20]! : 556;
  return (units * size * (bold ? 1.05 : 1)) / 1000;
}

/** The longest start of `text` that fits `width`, with an ellipsis when cut. */
export function fitText(text: string, width: number, size: number, bold = false): string {
  if (textWidth(text, size, bold) <= width) return text;
  let cut = text;
  while (cut.length > 0 && textWidth(`${cut}…`, size, bold) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

const num = (v: number) => (Math.round(v * 100) / 100).toString();
const color = (c: Rgb) => c.map((v) => num(v)).join(" ");

export interface LineOptions {
  /** Dash and gap lengths in points (a dotted or dashed rule); solid without. */
  readonly dash?: readonly number[];
}

export interface PathOptions {
  /** The outline's colour; none: not stroked. */
  readonly stroke?: Rgb;
  readonly width?: number;
  /** The inside's colour (the path is closed for the fill); none: not filled. */
  readonly fill?: Rgb;
  readonly dash?: readonly number[];
}

export interface Page {
  text(x: number, y: number, text: string, options?: TextOptions): void;
  rect(x: number, y: number, width: number, height: number, fill: Rgb): void;
  line(
    x1: number,
    y1: number,
    x2: number,
    y2: number,
    stroke: Rgb,
    width?: number,
    options?: LineOptions,
  ): void;
  /**
   * A polyline through `points` ([x0, y0, x1, y1, …]); a point that is not finite breaks it into
   * pieces (a gap in a series). Pieces of one point are left out. One path op per call.
   */
  path(points: ArrayLike<number>, options: PathOptions): void;
}

const dashOf = (dash: readonly number[] | undefined) =>
  dash && dash.length > 0 ? `[${dash.map(num).join(" ")}] 0 d ` : "";
const SOLID = "[] 0 d";

export interface PdfDocument {
  addPage(): Page;
  /** The file: header, objects, cross-reference table and trailer. */
  bytes(): Uint8Array;
}

export function createPdf(info: { title: string; author?: string; created?: Date }): PdfDocument {
  const pages: string[][] = [];
  return {
    addPage() {
      const ops: string[] = [];
      pages.push(ops);
      return {
        text(x, y, text, options = {}) {
          const size = options.size ?? 10;
          const bold = options.bold ?? false;
          const w = textWidth(text, size, bold);
          const left =
            options.align === "right" ? x - w : options.align === "center" ? x - w / 2 : x;
          ops.push(
            `${color(options.color ?? [0, 0, 0])} rg BT /${bold ? "F2" : "F1"} ${num(size)} Tf ` +
              `1 0 0 1 ${num(left)} ${num(y)} Tm ${pdfString(text)} Tj ET`,
          );
        },
        rect(x, y, width, height, fill) {
          ops.push(`${color(fill)} rg ${num(x)} ${num(y)} ${num(width)} ${num(height)} re f`);
        },
        line(x1, y1, x2, y2, stroke, width = 0.5, options = {}) {
          const dash = dashOf(options.dash);
          ops.push(
            `${color(stroke)} RG ${num(width)} w ${dash}${num(x1)} ${num(y1)} m ` +
              `${num(x2)} ${num(y2)} l S${dash ? ` ${SOLID}` : ""}`,
          );
        },
        path(points, options) {
          if (!options.stroke && !options.fill) return;
          const pieces: string[][] = [];
          let piece: string[] = [];
          for (let i = 0; i + 1 < points.length; i += 2) {
            const x = points[i]!;
            const y = points[i + 1]!;
            if (!Number.isFinite(x) || !Number.isFinite(y)) {
              if (piece.length > 1) pieces.push(piece);
              piece = [];
              continue;
            }
            piece.push(`${num(x)} ${num(y)} ${piece.length === 0 ? "m" : "l"}`);
          }
          if (piece.length > 1) pieces.push(piece);
          if (pieces.length === 0) return;
          const dash = dashOf(options.dash);
          const paint = options.fill ? (options.stroke ? "b" : "f") : "S";
          const body = pieces.map((p) => p.join(" ") + (options.fill ? " h" : "")).join(" ");
          ops.push(
            (options.fill ? `${color(options.fill)} rg ` : "") +
              (options.stroke
                ? `${color(options.stroke)} RG ${num(options.width ?? 1)} w ${dash}`
                : "") +
              `${body} ${paint}${dash ? ` ${SOLID}` : ""}`,
          );
        },
      };
    },
    bytes() {
      const objects: string[] = [];
      const add = (body: string) => objects.push(body);
      const pageCount = Math.max(1, pages.length);
      const firstPage = 6;
      const kids = Array.from({ length: pageCount }, (_, i) => `${firstPage + 2 * i} 0 R`);
      add("<< /Type /Catalog /Pages 2 0 R >>");
      add(`<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pageCount} >>`);
      add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
      add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
      const d = info.created ?? new Date();
      const stamp = d
        .toISOString()
        .replace(/[-:T]/g, "")
        .replace(/\.\d+Z$/, "Z");
      add(
        `<< /Title ${pdfString(info.title)} /Author ${pdfString(info.author ?? "")} ` +
          `/Producer (hollytools) /CreationDate (D:${stamp}) >>`,
      );
      for (let i = 0; i < pageCount; i++) {
        const content = (pages[i] ?? []).join("\n");
        add(
          `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${A4.width} ${A4.height}] ` +
            `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${firstPage + 2 * i + 1} 0 R >>`,
        );
        add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
      }
      let file = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n";
      const offsets: number[] = [];
      objects.forEach((body, i) => {
        offsets.push(file.length);
        file += `${i + 1} 0 obj\n${body}\nendobj\n`;
      });
      const xref = file.length;
      file += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
      for (const offset of offsets) file += `${String(offset).padStart(10, "0")} 00000 n \n`;
      file +=
        `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\n` +
        `startxref\n${xref}\n%%EOF\n`;
      return Uint8Array.from(Buffer.from(file, "latin1"));
    },
  };
}
