import type { EditionBrand } from "./editions.ts";

/** The edition's mark and name; the name is the accessible label. */
export function Logo({ brand }: { brand: EditionBrand }) {
  return (
    <span className="logo">
      <svg
        className="logo-mark"
        viewBox="0 0 32 32"
        width="28"
        height="28"
        aria-hidden="true"
        focusable="false"
      >
        {brand.edition === "ht" ? (
          <>
            <rect width="32" height="32" rx="8" fill={brand.colors.primary} />
            <path
              d="M7 22 L13 14 L18 18 L25 9"
              stroke={brand.colors.accent}
              strokeWidth="3"
              fill="none"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </>
        ) : (
          <>
            <circle cx="16" cy="16" r="16" fill={brand.colors.primary} />
            <path
              d="M6 20 C10 8, 14 8, 16 16 C18 24, 22 24, 26 12"
              stroke={brand.colors.accent}
              strokeWidth="3"
              fill="none"
              strokeLinecap="round"
            />
          </>
        )}
      </svg>
      <span className="logo-name">{brand.name}</span>
    </span>
  );
}
