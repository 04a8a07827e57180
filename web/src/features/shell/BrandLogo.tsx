import { useState } from "react";

/** The portal's own mark, shown when the branding's logo cannot be loaded. */
export const FALLBACK_LOGO_URL = "/favicon.svg";

/** Props of {@link BrandLogo}. */
export interface BrandLogoProps {
  src: string;
  /** rendered height and width in pixels (default 24) */
  size?: number;
}

/**
 * The branding's logo beside the brand title (decorative: the title names the link). When it
 * cannot load (a wrong address, a blocked host) the portal's own mark shows instead, and when even
 * that fails, nothing.
 */
export function BrandLogo({ src, size = 24 }: BrandLogoProps) {
  // what failed, for which address: a new address gets a new chance
  const [failure, setFailure] = useState<{ src: string; level: "logo" | "all" } | null>(null);
  const failed = failure?.src === src ? failure.level : "none";
  if (failed === "all") return null;
  const shown = failed === "logo" ? FALLBACK_LOGO_URL : src;
  return (
    <img
      className="portal-brand-logo"
      src={shown}
      alt=""
      width={size}
      height={size}
      data-fallback={failed === "logo" ? "true" : undefined}
      onError={() =>
        setFailure({ src, level: failed === "none" && src !== FALLBACK_LOGO_URL ? "logo" : "all" })
      }
    />
  );
}
