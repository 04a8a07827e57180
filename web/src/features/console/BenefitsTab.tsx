import { Alignment, Button, ButtonVariant, Card, Classes, Collapse, H3 } from "@blueprintjs/core";
import { ChevronDown, ChevronRight } from "@blueprintjs/icons";
import { useId, useState } from "react";
import { BENEFITS, GETTING_STARTED_STEPS } from "./benefits";
import { ProAppButton } from "./ProAppButton";

/** Props of the console's Benefits tab. */
export interface BenefitsTabProps {
  /** `{proAppUrl}/user/{uniqueId}` */
  proAppLink: string;
}

/** The Benefits tab (spec §2): an accordion of five benefits, five steps to start, an access button. */
export function BenefitsTab({ proAppLink }: BenefitsTabProps) {
  const [openItem, setOpenItem] = useState<string | null>(null);
  const idPrefix = useId();

  const handleToggle = (title: string) => setOpenItem((current) => (current === title ? null : title));

  return (
    <div className="console-benefits">
      <H3>What ESRT Pro does for you</H3>
      <Card className="console-accordion" compact>
        {BENEFITS.map((benefit, index) => {
          const isOpen = openItem === benefit.title;
          const panelId = `${idPrefix}-benefit-${index}`;
          return (
            <div key={benefit.title} className="console-accordion-item">
              <Button
                variant={ButtonVariant.MINIMAL}
                fill
                alignText={Alignment.START}
                icon={isOpen ? <ChevronDown /> : <ChevronRight />}
                aria-expanded={isOpen}
                aria-controls={panelId}
                onClick={() => handleToggle(benefit.title)}
                text={benefit.title}
              />
              <Collapse isOpen={isOpen}>
                <p id={panelId} className={`${Classes.RUNNING_TEXT} console-accordion-panel`}>
                  {benefit.description}
                </p>
              </Collapse>
            </div>
          );
        })}
      </Card>
      <H3>Getting started</H3>
      <ol className={`${Classes.LIST} console-steps`}>
        {GETTING_STARTED_STEPS.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <ProAppButton href={proAppLink} text="Access ESRT Pro" />
    </div>
  );
}
