/**
 * Invoices (docs/billing.md, "Invoices"): one per charge and one per refund, numbered per year
 * without gaps (the number is taken inside the charge's own transaction, so a rolled-back charge
 * takes none), with the client's invoice info as it was, and a PDF in the client's language.
 */
import { desc, eq, sql } from "drizzle-orm";
import {
  type BillingCurrency,
  type Invoice,
  type InvoiceLine,
  vatOf,
} from "../../contract/billing.ts";
import type { Edition, Locale } from "../../contract/common.ts";
import { resultRows, type Db } from "../db/database.ts";
import { invoiceInfo, invoices } from "../db/schema.ts";
import { A4, createPdf, fitText } from "../portfolios/pdf.ts";
import { day, invoiceLabels, money, planName } from "./texts.ts";

type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceInfoSnapshot = Omit<typeof invoiceInfo.$inferSelect, "clientId" | "updatedAt">;

/** VAT of a total that may be negative (refunds): the same rounding as a positive one, mirrored. */
export const signedVat = (total: number) => Math.sign(total) * vatOf(Math.abs(total));

export const invoiceNumber = (year: number, seq: number) =>
  `${year}-${String(seq).padStart(6, "0")}`;

/** Takes the next number of the year: the counter row stays locked until the transaction ends. */
async function nextNumber(tx: Db, year: number): Promise<number> {
  const result = await tx.execute(
    sql`insert into invoice_counters (year, last) values (${year}, 1)
        on conflict (year) do update set last = invoice_counters.last + 1
        returning last`,
  );
  return Number(resultRows(result)[0]!.last);
}

/** Issues the invoice of a payment (or of its refund), once: a second call returns the first. */
export async function issueInvoice(
  tx: Db,
  input: {
    clientId: number;
    paymentId: string;
    kind: "charge" | "refund";
    currency: BillingCurrency;
    lines: readonly InvoiceLine[];
    at: Date;
  },
): Promise<string> {
  const existing = await tx
    .select({ number: invoices.number, kind: invoices.kind })
    .from(invoices)
    .where(eq(invoices.paymentId, input.paymentId));
  const same = existing.find((e) => e.kind === input.kind);
  if (same) return same.number;
  const [info] = await tx
    .select()
    .from(invoiceInfo)
    .where(eq(invoiceInfo.clientId, input.clientId));
  const snapshot: InvoiceInfoSnapshot = {
    name: info?.name ?? "",
    country: info?.country ?? "",
    tin: info?.tin ?? "",
    city: info?.city ?? "",
    address: info?.address ?? "",
    postalCode: info?.postalCode ?? "",
    companyName: info?.companyName ?? "",
    company: info?.company ?? false,
  };
  const year = input.at.getUTCFullYear();
  const seq = await nextNumber(tx, year);
  const number = invoiceNumber(year, seq);
  const total = input.lines.reduce((a, l) => a + l.amountCents, 0);
  await tx.insert(invoices).values({
    number,
    year,
    seq,
    clientId: input.clientId,
    paymentId: input.paymentId,
    kind: input.kind,
    currency: input.currency,
    totalCents: total,
    vatCents: signedVat(total),
    lines: input.lines,
    info: snapshot,
    issuedAt: input.at,
  });
  return number;
}

export const invoiceOf = (row: InvoiceRow): Invoice => ({
  number: row.number,
  issuedAt: row.issuedAt.toISOString(),
  currency: row.currency as BillingCurrency,
  lines: row.lines as InvoiceLine[],
  totalCents: row.totalCents,
  vatCents: row.vatCents,
});

export async function clientInvoices(db: Db, clientId: number): Promise<Invoice[]> {
  const rows = await db
    .select()
    .from(invoices)
    .where(eq(invoices.clientId, clientId))
    .orderBy(desc(invoices.issuedAt), desc(invoices.seq));
  return rows.map(invoiceOf);
}

export async function clientInvoice(
  db: Db,
  clientId: number,
  number: string,
): Promise<InvoiceRow | null> {
  const [row] = await db.select().from(invoices).where(eq(invoices.number, number));
  return row && row.clientId === clientId ? row : null;
}

/** The invoice as a one-page A4 PDF in the client's language. */
export function invoicePdf(row: InvoiceRow, locale: Locale, edition: Edition): Uint8Array {
  const L = invoiceLabels[locale];
  const info = row.info as InvoiceInfoSnapshot;
  const currency = row.currency as BillingCurrency;
  const title = row.kind === "refund" ? L.creditNote : L.invoice;
  const pdf = createPdf({ title: `${title} ${row.number}`, created: row.issuedAt });
  const page = pdf.addPage();
  const left = 50;
  const right = A4.width - 50;
  const grey = [0.35, 0.35, 0.4] as const;
  let y = A4.height - 60;
  page.text(left, y, title, { size: 20, bold: true });
  page.text(right, y, L.seller, { size: 9, align: "right", color: grey });
  y -= 30;
  page.text(left, y, `${L.number}: ${row.number}`, { size: 10 });
  page.text(right, y, `${L.date}: ${day(locale, row.issuedAt)}`, { size: 10, align: "right" });
  y -= 30;
  page.text(left, y, L.billedTo, { size: 9, bold: true, color: grey });
  for (const text of [
    info.company && info.companyName ? info.companyName : info.name,
    info.company && info.companyName ? info.name : "",
    info.tin ? `${L.tin}: ${info.tin}` : "",
    info.address,
    [info.postalCode, info.city].filter(Boolean).join(" "),
    info.country,
  ].filter(Boolean)) {
    y -= 14;
    page.text(left, y, fitText(text, 300, 10), { size: 10 });
  }
  y -= 34;
  page.rect(left, y - 6, right - left, 20, [0.93, 0.94, 0.96]);
  page.text(left + 6, y, L.description, { size: 9, bold: true });
  page.text(340, y, L.period, { size: 9, bold: true });
  page.text(right - 6, y, L.amount, { size: 9, bold: true, align: "right" });
  for (const line of row.lines as InvoiceLine[]) {
    y -= 22;
    const plan = planName(locale, edition, line.product, line.tier, line.period);
    const description =
      line.kind === "credit"
        ? L.credit(plan)
        : line.kind === "refund"
          ? L.refund(plan)
          : line.kind === "balanceUsed"
            ? L.balanceUsed
            : line.kind === "balanceAdded"
              ? L.balanceAdded
              : plan;
    page.text(left + 6, y, fitText(description, 280, 10), { size: 10 });
    page.text(
      340,
      y,
      `${day(locale, new Date(line.from))} – ${day(locale, new Date(line.to))}`.slice(0, 60),
      { size: 8, color: grey },
    );
    page.text(right - 6, y, money(locale, line.amountCents, currency), {
      size: 10,
      align: "right",
    });
  }
  y -= 16;
  page.line(left, y, right, y, [0.7, 0.7, 0.75]);
  const totals: [string, number, boolean][] = [
    [L.base, row.totalCents - row.vatCents, false],
    [L.vat, row.vatCents, false],
    [L.total, row.totalCents, true],
  ];
  for (const [label, cents, bold] of totals) {
    y -= 18;
    page.text(right - 150, y, label, { size: 10, bold });
    page.text(right - 6, y, money(locale, cents, currency), { size: 10, bold, align: "right" });
  }
  y -= 30;
  page.text(left, y, L.vatIncluded, { size: 8, color: grey });
  return pdf.bytes();
}
