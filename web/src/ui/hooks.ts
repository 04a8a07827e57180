import { useEffect, useState } from "react";

/**
 * Gives focus back, when the component unmounts, to what had it when the component mounted: a
 * dialog shown only while open cannot return focus itself (Blueprint does on its closing transition).
 */
export function useReturnFocus(): void {
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  useEffect(
    () => () => {
      // after React has finished removing the dialog
      window.setTimeout(() => {
        if (opener?.isConnected) opener.focus();
      }, 0);
    },
    [opener],
  );
}

/** `value`, once it has not changed for `ms` milliseconds (a search box's query). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
