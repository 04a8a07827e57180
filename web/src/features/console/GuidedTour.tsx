import { Button, ButtonVariant, Card, Classes, Elevation, H4, Intent } from "@blueprintjs/core";
import { ArrowLeft, ArrowRight, Cross } from "@blueprintjs/icons";
import { type CSSProperties, useLayoutEffect, useState } from "react";
import { TOUR_MAX_WIDTH_PX, TOUR_STEPS, type TourAction } from "./tour";

/** Props of the guided tour's popover: the open step and how to move. */
export interface GuidedTourProps {
  step: number;
  dispatch: (action: TourAction) => void;
}

const GAP_PX = 8;

/** Where the popover goes: under the step's anchor (`[data-tour=...]`), or centred when it is missing. */
function placement(anchor: string): CSSProperties {
  const width = Math.min(TOUR_MAX_WIDTH_PX, window.innerWidth - 2 * GAP_PX);
  const target = document.querySelector(`[data-tour="${anchor}"]`);
  const rect = target?.getBoundingClientRect();
  if (!rect || (rect.width === 0 && rect.height === 0)) {
    return { width, top: "50%", left: "50%", transform: "translate(-50%, -50%)" };
  }
  const left = Math.min(Math.max(rect.left, GAP_PX), window.innerWidth - width - GAP_PX);
  return { width, top: rect.bottom + GAP_PX, left };
}

/**
 * The guided tour (spec §2): a popover at most 353 px wide pointing at each of four parts of the
 * page, with previous, next, dots and a close button. The page opens it on request.
 */
export function GuidedTour({ step, dispatch }: GuidedTourProps) {
  const current = TOUR_STEPS[step];
  const [style, setStyle] = useState<CSSProperties>({});

  useLayoutEffect(() => {
    if (!current) return;
    const handlePlace = () => setStyle(placement(current.anchor));
    handlePlace();
    window.addEventListener("resize", handlePlace);
    window.addEventListener("scroll", handlePlace, true);
    return () => {
      window.removeEventListener("resize", handlePlace);
      window.removeEventListener("scroll", handlePlace, true);
    };
  }, [current]);

  if (!current) return null;
  const last = step === TOUR_STEPS.length - 1;

  return (
    <Card
      elevation={Elevation.FOUR}
      className="console-tour"
      style={{ ...style, maxWidth: TOUR_MAX_WIDTH_PX }}
      role="dialog"
      aria-labelledby="console-tour-title"
      aria-describedby="console-tour-content"
    >
      <div className="console-tour-header">
        <H4 id="console-tour-title">{current.title}</H4>
        <Button
          variant={ButtonVariant.MINIMAL}
          icon={<Cross />}
          aria-label="Close the tour"
          onClick={() => dispatch({ type: "close" })}
        />
      </div>
      <p id="console-tour-content" className={Classes.RUNNING_TEXT}>
        {current.content}
      </p>
      <div className="console-tour-footer">
        <Button
          icon={<ArrowLeft />}
          text="Previous"
          disabled={step === 0}
          onClick={() => dispatch({ type: "previous" })}
        />
        <fieldset className="console-tour-dots" aria-label="Tour steps">
          {TOUR_STEPS.map((s, index) => (
            <button
              key={s.anchor}
              type="button"
              className={`console-tour-dot ${index === step ? "console-tour-dot-active" : ""}`}
              aria-label={`Step ${index + 1} of ${TOUR_STEPS.length}`}
              aria-current={index === step ? "step" : undefined}
              onClick={() => dispatch({ type: "goTo", step: index })}
            />
          ))}
        </fieldset>
        <Button
          intent={Intent.PRIMARY}
          endIcon={last ? undefined : <ArrowRight />}
          text={last ? "Finish" : "Next"}
          onClick={() => dispatch({ type: "next" })}
        />
      </div>
    </Card>
  );
}
