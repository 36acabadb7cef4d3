/** A problem in an imported file, named by file and line (1-based, the header is line 1). */
export class ImportError extends Error {
  readonly file: string;
  readonly line: number | null;
  constructor(file: string, line: number | null, message: string) {
    super(`${file}${line === null ? "" : `:${line}`}: ${message}`);
    this.name = "ImportError";
    this.file = file;
    this.line = line;
  }
}

/** Splits one CSV record (RFC 4180 quoting: "a, b" and "" for a quote). */
export function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === "") quoted = true;
    else if (ch === ",") {
      fields.push(field);
      field = "";
    } else field += ch;
  }
  if (quoted) throw new Error("unterminated quote");
  fields.push(field);
  return fields;
}

export interface CsvTable {
  readonly header: readonly string[];
  /** Records with their line numbers. */
  readonly rows: readonly { readonly line: number; readonly fields: readonly string[] }[];
}

/** Parses a CSV file, requiring exactly the expected header. */
export function parseCsv(file: string, text: string, expectedHeader: readonly string[]): CsvTable {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const header = (lines[0] ?? "").replace(/\r$/, "");
  if (header !== expectedHeader.join(",")) {
    throw new ImportError(
      file,
      1,
      `expected the header "${expectedHeader.join(",")}", found "${header}"`,
    );
  }
  const rows: { line: number; fields: string[] }[] = [];
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, "");
    if (raw === "") throw new ImportError(file, i + 1, "empty line");
    let fields: string[];
    try {
      fields = splitCsvLine(raw);
    } catch (error) {
      throw new ImportError(file, i + 1, (error as Error).message);
    }
    if (fields.length !== expectedHeader.length) {
      throw new ImportError(
        file,
        i + 1,
        `expected ${expectedHeader.length} fields, found ${fields.length}`,
      );
    }
    rows.push({ line: i + 1, fields });
  }
  return { header: expectedHeader, rows };
}
