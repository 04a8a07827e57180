/** The fields of a user that user events carry to address them (schema/events/user.ts `contact`). */
export function eventContact(user: {
  id: number;
  uniqueId: string;
  email: string;
  firstName: string;
  lastName: string;
}): { userId: number; uniqueId: string; email: string; firstName: string; lastName: string } {
  return {
    userId: user.id,
    uniqueId: user.uniqueId,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
  };
}
