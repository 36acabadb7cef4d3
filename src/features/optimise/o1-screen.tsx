import type { ScreenProps } from "../../app/route-table.ts";
import { OptionsScreen } from "./options-screen.tsx";

/** optimize/o1. */
export default function O1Screen(props: ScreenProps) {
  return <OptionsScreen {...props} level={1} />;
}
