// Reading the PDF files the server writes (src/server/portfolios/pdf.ts: uncompressed streams,
// one string per `Tj`): their structure, their pages, their text and their drawing ops.
import { expect } from "vitest";
import { pdfString } from "../../src/server/portfolios/pdf.ts";

/** The structure of a PDF 1.4 file: header, xref offsets at each `n 0 obj`, stream lengths. */
export function checkPdf(file: string): { pages: number } {
  expect(file.startsWith("%PDF-1.4\n")).toBe(true);
  expect(file.trimEnd().endsWith("%%EOF")).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(file)![1]);
  expect(file.slice(startxref, startxref + 5)).toBe("xref\n");
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(file.slice(startxref))!;
  expect(Number(first)).toBe(0);
  const entries = file
    .slice(startxref)
    .split("\n")
    .slice(2, 2 + Number(count));
  expect(entries[0]).toBe("0000000000 65535 f ");
  entries.slice(1).forEach((entry, i) => {
    expect(entry).toMatch(/^\d{10} 00000 n $/);
    const offset = Number(entry.slice(0, 10));
    expect(file.slice(offset, offset + 12)).toMatch(new RegExp(`^${i + 1} 0 obj\\n`));
  });
  expect(file).toContain(`/Size ${count}`);
  for (const m of file.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = m.index + m[0].length;
    expect(file.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe("\nendstream");
  }
  const pages = Number(/\/Type \/Pages \/Kids \[[^\]]*\] \/Count (\d+)/.exec(file)![1]);
  expect(file.match(/\/Type \/Page /g)).toHaveLength(pages);
  return { pages };
}

/** The file as the tests read it (the writer's bytes are Latin-1). */
export const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("latin1");

/** Whether a text is written as one string on a page. */
export const hasText = (file: string, text: string): boolean =>
  file.includes(`${pdfString(text)} Tj`);

/** How many times a text is written as one string. */
export const countText = (file: string, text: string): number =>
  file.split(`${pdfString(text)} Tj`).length - 1;

/** Path ops of a chart: polylines of ten segments or more (a series or an area). */
export const chartPaths = (file: string): number =>
  file.match(/(?:-?[\d.]+ -?[\d.]+ l ){10,}[^\n]*(?: S| f| b)/g)?.length ?? 0;

/** The strings of the file in order, joined by spaces, escapes undone (Latin-1 and WinAnsi). */
export function plainText(file: string): string {
  const extra: Record<number, string> = { 0x80: "€", 0x95: "•", 0x96: "–", 0x97: "—" };
  return [...file.matchAll(/\(((?:[^()\\]|\\.)*)\) Tj/g)]
    .map((m) =>
      m[1]!.replace(/\\([0-7]{3}|.)/g, (_, e: string) => {
        if (e.length === 1) return e;
        const code = parseInt(e, 8);
        return extra[code] ?? String.fromCharCode(code);
      }),
    )
    .join(" ");
}
