import { lazy, Suspense } from "react";
import { useLocation } from "react-router-dom";
import { useServices } from "../../app/services.tsx";
import type { Locale } from "../../contract/common.ts";
import { sectionParamOf } from "../../contract/education.ts";

const EducationSection = lazy(() => import("./education-section.tsx"));

/**
 * The education section's place in the app shell: nothing until the page's query string names the
 * section (hollypedia in ht, program in tt); then the section loads and opens over the page.
 */
export function EducationMount({ locale }: { locale: Locale }) {
  const location = useLocation();
  const { config } = useServices();
  if (!new URLSearchParams(location.search).has(sectionParamOf(config.edition))) return null;
  return (
    <Suspense fallback={null}>
      <EducationSection locale={locale} />
    </Suspense>
  );
}
