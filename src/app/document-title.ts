import { useEffect } from "react";
import { useServices } from "./services.tsx";

export function useDocumentTitle(title: string): void {
  const { brand } = useServices();
  useEffect(() => {
    document.title = `${title} · ${brand.name}`;
  }, [title, brand.name]);
}
