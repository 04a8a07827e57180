import { config } from "@services/shared/config";
import type { Tx } from "@services/shared/db";
import { isSlotTaken } from "./present";

/** Bookings one slot may hold (APPOINTMENT_SLOT_CAPACITY, default 1). */
export function slotCapacity(): number {
  return config().APPOINTMENT_SLOT_CAPACITY;
}

/**
 * The lowest seat (1 to `capacity`) no live booking of the slot at `dateTime` holds, read in the
 * caller's transaction; null when the slot is full. Two transactions may pick the same seat: the
 * partial unique index on (dateTime, seat) lets only one of them commit.
 */
export async function freeSeat(tx: Tx, dateTime: Date, capacity: number): Promise<number | null> {
  const held = await tx.appointment.findMany({
    where: { dateTime, status: { not: "cancelled" } },
    select: { seat: true },
  });
  const taken = new Set(held.map((h) => h.seat));
  for (let seat = 1; seat <= capacity; seat++) if (!taken.has(seat)) return seat;
  return null;
}

/**
 * Runs `attempt` (a whole transaction) again when it lost its seat to a concurrent booking, at most
 * `capacity` times in all, so that as many bookings of a slot succeed as it has seats; with a
 * capacity of 1 it runs once. Any other failure passes through.
 */
export async function retryLostSeat<T>(capacity: number, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isSlotTaken(err) || tries >= capacity) throw err;
    }
  }
}
