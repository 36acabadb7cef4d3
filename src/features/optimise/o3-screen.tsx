import type { ScreenProps } from "../../app/route-table.ts";
import { OptionsScreen } from "./options-screen.tsx";

/** optimize/o3. */
export default function O3Screen(props: ScreenProps) {
  return <OptionsScreen {...props} level={3} />;
}
