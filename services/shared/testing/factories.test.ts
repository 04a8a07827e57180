import { verifyPassword } from "@services/user";
import { testDb } from "./db";
import {
  createAppointment,
  createDocument,
  createUser,
  randomBusinessSlot,
  TEST_PASSWORD,
} from "./factories";

describe("factories", () => {
  it("make distinct users whose password is TEST_PASSWORD", async () => {
    const db = await testDb();
    const [a, b] = await Promise.all([createUser(db), createUser(db, { userType: "client" })]);
    expect(a.username).not.toBe(b.username);
    expect(a.email).not.toBe(b.email);
    expect(b.userType).toBe("client");
    expect(await verifyPassword(a.password, TEST_PASSWORD)).toBe(true);
  });

  it("give documents and appointments an owner and appointments a free business slot", async () => {
    const db = await testDb();
    const doc = await createDocument(db);
    const owner = await db.prisma.user.findUniqueOrThrow({ where: { id: doc.userId } });
    expect(owner.userType).toBe("client");
    const appts = await Promise.all([1, 2, 3].map(() => createAppointment(db, { userId: owner.id })));
    expect(new Set(appts.map((a) => a.dateTime.getTime())).size).toBe(3);
  });

  it("pick slots on weekdays from 09:00 to 16:30 Pacific time, 1 to 30 days ahead", () => {
    const fmt = new Intl.DateTimeFormat("en-US", {
      timeZone: "America/Los_Angeles",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    for (let i = 0; i < 200; i++) {
      const slot = randomBusinessSlot();
      const parts = Object.fromEntries(fmt.formatToParts(slot).map((p) => [p.type, p.value]));
      expect(["Mon", "Tue", "Wed", "Thu", "Fri"]).toContain(parts.weekday);
      const minutes = Number(parts.hour) * 60 + Number(parts.minute);
      expect(minutes % 30).toBe(0);
      expect(minutes).toBeGreaterThanOrEqual(9 * 60);
      expect(minutes).toBeLessThanOrEqual(16 * 60 + 30);
      expect(slot.getTime()).toBeGreaterThan(Date.now());
      expect(slot.getTime()).toBeLessThan(Date.now() + 31 * 86_400_000);
    }
  });
});
