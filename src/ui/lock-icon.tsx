/**
 * A small padlock drawn inline (a font's lock glyph renders as an empty box where the font lacks
 * it, e.g. Debian's Chromium). Decorative: the text beside it says what is locked and why.
 */
export function LockIcon({ className }: { className?: string }) {
  return (
    <svg
      className={className ? `lock-icon ${className}` : "lock-icon"}
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d="M4.5 7V5a3.5 3.5 0 0 1 7 0v2"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
      <rect x="2.5" y="7" width="11" height="8" rx="1.6" fill="currentColor" />
    </svg>
  );
}
