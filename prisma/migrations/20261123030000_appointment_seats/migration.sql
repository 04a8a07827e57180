-- Slot capacity (APPOINTMENT_SLOT_CAPACITY, default 1): each live booking of a slot holds one seat,
-- 1 to the capacity, and the database refuses a second live booking of the same seat. With a
-- capacity of 1 this is the one-booking-per-slot guarantee it replaces.
ALTER TABLE "appointments" ADD COLUMN "seat" INTEGER NOT NULL DEFAULT 1;

DROP INDEX "appointments_live_slot_key";
CREATE UNIQUE INDEX "appointments_live_slot_key" ON "appointments"("dateTime", "seat") WHERE "status" <> 'cancelled';
