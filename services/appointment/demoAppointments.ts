import type { Db } from "@services/shared/db";
import { DateTime } from "luxon";
import { getAvailability } from "./getAvailability";
import { isSlotTaken } from "./present";
import { freeSeat, slotCapacity } from "./seats";

// Demo appointments for the testing tools' demo clients (issue 12, outside production): one upcoming
// consultation each, in free slots at the far end of the booking window (out of the way of real
// bookings), written without events (no confirmation email to an address that does not exist).

const TYPES = ["phone", "zoom", "teams"] as const;
const BUSINESS_ZONE = "America/Los_Angeles";

/**
 * Books one pending or confirmed appointment for each of `userIds` in a free slot 40 to 60 days
 * ahead. Answers how many were made (a full calendar makes fewer).
 * @throws the database driver's error.
 */
export async function createDemoAppointments(props: {
  db: Db;
  userIds: number[];
  now?: Date;
}): Promise<number> {
  if (props.userIds.length === 0) return 0;
  const now = DateTime.fromJSDate(props.now ?? new Date()).setZone(BUSINESS_ZONE);
  const days = await getAvailability({
    db: props.db,
    from: now.plus({ days: 40 }).toISODate() ?? "",
    to: now.plus({ days: 59 }).toISODate() ?? "",
    now: props.now,
  });
  const free = days
    .flatMap((d) => d.slots)
    .filter((s) => !s.taken)
    .map((s) => new Date(s.dateTime))
    .reverse();
  const capacity = slotCapacity();
  let made = 0;
  for (const [i, userId] of props.userIds.entries()) {
    while (free.length > 0) {
      const dateTime = free.shift();
      if (!dateTime) break;
      try {
        const booked = await props.db.prisma.$transaction(async (tx) => {
          const seat = await freeSeat(tx, dateTime, capacity);
          if (seat === null) return false;
          await tx.appointment.create({
            data: {
              userId,
              dateTime,
              seat,
              appointmentType: TYPES[i % TYPES.length] ?? "phone",
              status: i % 2 === 0 ? "pending" : "confirmed",
              notes: "Demo consultation",
              timeZone: BUSINESS_ZONE,
            },
          });
          return true;
        });
        if (booked) {
          made++;
          break;
        }
      } catch (err) {
        if (!isSlotTaken(err)) throw err;
      }
    }
  }
  return made;
}

/** Deletes every appointment of `userIds` (the demo clients'). @throws the database driver's error. */
export async function removeDemoAppointments(props: { db: Db; userIds: number[] }): Promise<number> {
  if (props.userIds.length === 0) return 0;
  const { count } = await props.db.prisma.appointment.deleteMany({
    where: { userId: { in: props.userIds } },
  });
  return count;
}
