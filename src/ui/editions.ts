import type { Edition } from "../contract/common.ts";
import { brandNames } from "../contract/names.ts";

export interface EditionBrand {
  readonly edition: Edition;
  /** Brand names are not translated. */
  readonly name: string;
  /** Section name of the education area and its default tab (PRODUCT.md, "Editions"). */
  readonly educationSection: "hollypedia" | "program";
  readonly educationDefaultTab: "dictionary" | "education";
  /** Colour tokens; each pair keeps a contrast of at least 4.5:1 (WCAG AA) for text. */
  readonly colors: {
    readonly primary: string;
    readonly primaryText: string;
    readonly accent: string;
    readonly surface: string;
    readonly ink: string;
  };
}

export const editionBrands: Record<Edition, EditionBrand> = {
  ht: {
    edition: "ht",
    name: brandNames.ht,
    educationSection: "hollypedia",
    educationDefaultTab: "dictionary",
    colors: {
      primary: "#0b5d55",
      primaryText: "#ffffff",
      accent: "#f2b705",
      surface: "#f4f8f7",
      ink: "#14211f",
    },
  },
  tt: {
    edition: "tt",
    name: brandNames.tt,
    educationSection: "program",
    educationDefaultTab: "education",
    colors: {
      primary: "#3d2c8d",
      primaryText: "#ffffff",
      accent: "#ff8a3d",
      surface: "#f6f5fb",
      ink: "#1b1736",
    },
  },
};

/** The specification's context flags: is{product} and isTwoTails. */
export const editionFlags = (edition: Edition) => ({
  isHollytools: edition === "ht",
  isTwoTails: edition === "tt",
});
