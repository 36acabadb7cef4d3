import type { ScreenProps } from "../../app/route-table.ts";
import { OptionsScreen } from "./options-screen.tsx";

/** optimize/o2. */
export default function O2Screen(props: ScreenProps) {
  return <OptionsScreen {...props} level={2} />;
}
