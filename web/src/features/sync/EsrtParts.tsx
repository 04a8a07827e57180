import { Tag } from "@blueprintjs/core";
import type { EsrtDeliveryStatus, EsrtHealth } from "@web/generated/graphql";
import { DELIVERY_STATUS_TAGS, HEALTH_HINTS, HEALTH_TAGS } from "./esrtSync";

/** Props of a health tag. */
export interface HealthTagProps {
  health: EsrtHealth;
}

/** An endpoint's or the NATS channel's health as a tag; its meaning is the tag's title. */
export function HealthTag({ health }: HealthTagProps) {
  const look = HEALTH_TAGS[health];
  return (
    <Tag intent={look.intent} minimal round title={HEALTH_HINTS[health]}>
      {look.text}
    </Tag>
  );
}

/** Props of a delivery status tag. */
export interface DeliveryStatusTagProps {
  status: EsrtDeliveryStatus;
}

/** A delivery's status as a tag. */
export function DeliveryStatusTag({ status }: DeliveryStatusTagProps) {
  const look = DELIVERY_STATUS_TAGS[status];
  return (
    <Tag intent={look.intent} minimal round>
      {look.text}
    </Tag>
  );
}
