import { DEMO_USER } from "./consoleUser";
import { UserConsole } from "./UserConsole";

/** /preview-user-console (spec §2, public): the client console with a made-up demo user. */
export function PreviewUserConsolePage() {
  return <UserConsole user={DEMO_USER} preview />;
}
