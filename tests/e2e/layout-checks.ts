// The layout checks of a finished page (issue 25), measured in the page as it is drawn at the
// current width: what a person would see as broken, found without looking.
// - clipped text: a text element whose content is cut by its own box (overflow hidden or clip)
//   without an intended ellipsis or line clamp, or that runs out of its box into its neighbours;
// - SVG text boxes that overlap (tick labels running into each other);
// - the site header on more than one row (checked at 1024 px and wider);
// - visible text smaller than 11 px (checked on a phone), SVG text at its drawn size;
// - internal identifiers in visible text: camelCase codes (`simIndices`) and SNAKE_CASE series ids
//   (`US10Y_MONTHLY`).
import type { Page } from "@playwright/test";

export interface LayoutFindings {
  readonly clipped: string[];
  readonly overlappingText: string[];
  readonly headerRows: number;
  readonly smallText: string[];
  readonly identifiers: string[];
}

/** camelCase product codes and SNAKE_CASE series ids, as a person should never read them. */
export const internalIdentifier = /\b(?:[a-z]+(?:[A-Z][a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/;

export function layoutFindings(page: Page): Promise<LayoutFindings> {
  return page.evaluate((identifierSource) => {
    const identifier = new RegExp(identifierSource, "g");
    const short = (text: string | null) => (text ?? "").trim().replace(/\s+/g, " ").slice(0, 60);
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.split(" ")[0]}` : ""} "${short(el.textContent)}"`;
    /** Drawn for people: visible, not a screen-reader-only box, not hidden from them. */
    const seen = (el: Element) => {
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
      if (el.closest("[aria-hidden='true'], [inert]")) return false;
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) return false;
      // Screen-reader-only boxes (clip or clip-path to nothing) hold text no one sees.
      for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.clip !== "auto" && s.position === "absolute") return false;
        if (s.clipPath.startsWith("inset(50%")) return false;
        const box = a.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1) return false;
      }
      return true;
    };
    const ownText = (el: Element) =>
      [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());

    const clipped: string[] = [];
    const smallText: string[] = [];
    const identifiers = new Set<string>();
    for (const el of document.body.querySelectorAll("*")) {
      if (!ownText(el) || el.closest("script, style, noscript, template")) continue;
      if (!seen(el)) continue;
      const s = getComputedStyle(el);
      const inSvg = el instanceof SVGElement;
      // Size as drawn: an SVG scaled to a phone draws its text smaller than its font size.
      const scale = inSvg
        ? Math.hypot(
            (el as SVGGraphicsElement).getScreenCTM?.()?.a ?? 1,
            (el as SVGGraphicsElement).getScreenCTM?.()?.b ?? 0,
          )
        : 1;
      const size = parseFloat(s.fontSize) * scale;
      if (size < 10.9) smallText.push(`${describe(el)} at ${size.toFixed(1)} px`);
      for (const n of el.childNodes)
        if (n.nodeType === Node.TEXT_NODE)
          for (const m of n.textContent?.matchAll(identifier) ?? []) identifiers.add(m[0]);
      if (inSvg || s.display.startsWith("inline") || s.display === "contents") continue;
      const scrolls = ["auto", "scroll"];
      if (scrolls.includes(s.overflowX) || scrolls.includes(s.overflowY)) continue;
      if (s.textOverflow === "ellipsis" || s.webkitLineClamp !== "none") continue;
      const wide = el.scrollWidth - el.clientWidth;
      const tall = s.overflowY === "visible" ? 0 : el.scrollHeight - el.clientHeight;
      if (wide > 1 || tall > 1)
        clipped.push(
          `${describe(el)}: ${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight}`,
        );
    }
    for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder]"))
      if (seen(el))
        for (const a of ["aria-label", "title", "placeholder"])
          for (const m of el.getAttribute(a)?.matchAll(identifier) ?? []) identifiers.add(m[0]);

    const overlappingText: string[] = [];
    for (const svg of document.querySelectorAll("svg")) {
      const boxes = [...svg.querySelectorAll("text")]
        .filter((t) => t.textContent?.trim() && seen(t))
        .map((t) => ({ t, r: t.getBoundingClientRect() }));
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i]!.r;
          const b = boxes[j]!.r;
          const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (x > 1 && y > 1)
            overlappingText.push(
              `"${short(boxes[i]!.t.textContent)}" over "${short(boxes[j]!.t.textContent)}"`,
            );
        }
    }

    // Rows of the header: items sorted by their top; an item that starts below the bottom of the
    // shortest item of the current row opens a new row (a tall logo does not hide a second row).
    const header = document.querySelector(".site-header");
    const items = header
      ? [...header.querySelectorAll("a, button, select, input")].filter(seen)
      : [];
    const rects = items.map((e) => e.getBoundingClientRect()).sort((a, b) => a.top - b.top);
    let headerRows = rects.length ? 1 : 0;
    let rowBottom = rects[0]?.bottom ?? 0;
    for (const r of rects.slice(1))
      if (r.top >= rowBottom - 1) {
        headerRows++;
        rowBottom = r.bottom;
      } else rowBottom = Math.min(rowBottom, r.bottom);

    return {
      clipped,
      overlappingText,
      headerRows,
      smallText,
      identifiers: [...identifiers],
    };
  }, internalIdentifier.source);
}

/** The findings as failures, each named with the width it was seen at. */
export function layoutFailures(found: LayoutFindings, width: number): string[] {
  const at = `${width}px`;
  return [
    ...found.clipped.map((c) => `${at} clipped text: ${c}`),
    ...found.overlappingText.map((o) => `${at} overlapping chart text: ${o}`),
    ...(width >= 1024 && found.headerRows > 1 ? [`${at} header on ${found.headerRows} rows`] : []),
    ...(width < 600 ? found.smallText.map((s) => `${at} text under 11 px: ${s}`) : []),
    ...found.identifiers.map((i) => `${at} internal identifier: ${i}`),
  ];
}
