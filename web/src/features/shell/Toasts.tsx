import { Classes, OverlayToaster, Position } from "@blueprintjs/core";
import { dismissToasts, MAX_TOASTS, registerToaster } from "@web/lib/toast";
import { LARGE_SCREEN_QUERY, useMediaQuery } from "@web/lib/useMediaQuery";
import { useEffect } from "react";

/** Spec §4/§9: a swipe of 50 px to the right dismisses the toast. */
export const SWIPE_DISMISS_PX = 50;

/** Focuses the toast area on F8 (spec §4), so keyboard users can reach a toast. */
function useF8ToFocusToasts(): void {
  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "F8") return;
      const area = document.querySelector<HTMLElement>(`.portal-toaster.${Classes.TOAST_CONTAINER}`);
      if (!area) return;
      area.tabIndex = -1;
      area.focus();
    };
    window.addEventListener("keydown", handleKeyDown);
    return () => window.removeEventListener("keydown", handleKeyDown);
  }, []);
}

/** Whether a pointer that went down at `startX` and is now at `x` has swiped far enough right. */
export function isSwipeRight(startX: number, x: number): boolean {
  return x - startX >= SWIPE_DISMISS_PX;
}

/** Dismisses the visible toast when it is swiped (touch, pen or mouse drag) 50 px to the right. */
function useSwipeToDismiss(): void {
  useEffect(() => {
    let startX: number | null = null;
    const handlePointerDown = (event: PointerEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      startX = target?.closest(`.portal-toaster .${Classes.TOAST}`) ? event.clientX : null;
    };
    const handlePointerMove = (event: PointerEvent) => {
      if (startX === null || !isSwipeRight(startX, event.clientX)) return;
      startX = null;
      dismissToasts();
    };
    const handlePointerEnd = () => {
      startX = null;
    };
    document.addEventListener("pointerdown", handlePointerDown);
    document.addEventListener("pointermove", handlePointerMove);
    document.addEventListener("pointerup", handlePointerEnd);
    document.addEventListener("pointercancel", handlePointerEnd);
    return () => {
      document.removeEventListener("pointerdown", handlePointerDown);
      document.removeEventListener("pointermove", handlePointerMove);
      document.removeEventListener("pointerup", handlePointerEnd);
      document.removeEventListener("pointercancel", handlePointerEnd);
    };
  }, []);
}

/** The one toast region: bottom right on large screens, top on small ones, one toast at a time. */
export function Toasts() {
  const large = useMediaQuery(LARGE_SCREEN_QUERY);
  useF8ToFocusToasts();
  useSwipeToDismiss();
  return (
    <OverlayToaster
      ref={registerToaster}
      className="portal-toaster"
      position={large ? Position.BOTTOM_RIGHT : Position.TOP}
      maxToasts={MAX_TOASTS}
      aria-label="Notifications (F8)"
    />
  );
}
