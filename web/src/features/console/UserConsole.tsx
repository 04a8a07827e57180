import { useServerConfig } from "@web/data/rest";
import "./console.css";
import {
  Button,
  ButtonVariant,
  Classes,
  H1,
  Spinner,
  SpinnerSize,
  Tab,
  type TabId,
  Tabs,
} from "@blueprintjs/core";
import { Help } from "@blueprintjs/icons";
import { useLookupByUniqueIdOnce } from "@web/data/rest";
import { proAppUserUrl } from "@web/lib/qr";
import { tabOf } from "@web/ui/tabs";
import { lazy, Suspense, useReducer, useState } from "react";
import { BenefitsTab } from "./BenefitsTab";
import type { ConsoleUser } from "./consoleUser";
import { GuidedTour } from "./GuidedTour";
import { NotesTab } from "./NotesTab";
import { TOUR_CLOSED, tourReducer } from "./tour";
import { WelcomeTab } from "./WelcomeTab";

// The booking form (date picker, GraphQL client, time zones) loads when the Appointments tab is
// first opened, not with the console.
const AppointmentsTab = lazy(() => import("./AppointmentsTab").then((m) => ({ default: m.AppointmentsTab })));

/** Props of the user console: whose it is, and whether it is the public preview. */
export interface UserConsoleProps {
  user: ConsoleUser;
  /** the demo of /preview-user-console: no server calls about the user */
  preview: boolean;
  /** told the saved notes after the server accepted them */
  onNotesSaved?: (notes: string) => void;
}

/**
 * The user console (spec §2): Welcome, Benefits, Notes and Appointments tabs, and the guided tour on
 * request.
 */
export function UserConsole({ user, preview, onNotesSaved }: UserConsoleProps) {
  const { config } = useServerConfig();
  const [tab, setTab] = useState<TabId>("welcome");
  const [appointmentsOpened, setAppointmentsOpened] = useState(false);
  const [tour, dispatchTour] = useReducer(
    (state: Parameters<typeof tourReducer>[0], action: Parameters<typeof tourReducer>[1]) =>
      tourReducer(state, action),
    TOUR_CLOSED,
  );
  useLookupByUniqueIdOnce(user.uniqueId, !preview);
  const proAppLink = proAppUserUrl(config.proAppUrl, user.uniqueId);

  const handleTabChange = (next: TabId) => {
    if (next === "appointments") setAppointmentsOpened(true);
    setTab(next);
  };
  const handleStartTour = () => dispatchTour({ type: "open" });

  return (
    <section className="portal-page console">
      <div className="console-header">
        <H1>{preview ? "Client Console Preview" : "Your console"}</H1>
        <Button
          variant={ButtonVariant.OUTLINED}
          icon={<Help />}
          text="Take the tour"
          onClick={handleStartTour}
        />
      </div>
      {preview ? (
        <p className={Classes.TEXT_MUTED}>
          A demo of the client console with a made-up user. Sign in to see your own details.
        </p>
      ) : null}
      {/* `tabOf` marks each tab `disabled={false}`: Blueprint's arrow keys move only between tabs marked
          aria-disabled="false", which it no longer sets by default under React 19. */}
      <Tabs id="user-console" selectedTabId={tab} onChange={handleTabChange} large className="console-tabs">
        <Tab {...tabOf("welcome", "Welcome")} panel={<WelcomeTab user={user} proAppLink={proAppLink} />} />
        <Tab {...tabOf("benefits", "Benefits")} panel={<BenefitsTab proAppLink={proAppLink} />} />
        <Tab
          {...tabOf("notes", "Notes")}
          panel={<NotesTab initialNotes={user.notes} preview={preview} onSaved={onNotesSaved} />}
        />
        <Tab
          {...tabOf("appointments", <span data-tour="appointments-link">Appointments</span>)}
          panel={
            appointmentsOpened || tab === "appointments" ? (
              <Suspense fallback={<Spinner size={SpinnerSize.STANDARD} aria-label="Loading appointments" />}>
                <AppointmentsTab preview={preview} />
              </Suspense>
            ) : undefined
          }
        />
      </Tabs>
      {tour.open ? <GuidedTour step={tour.step} dispatch={dispatchTour} /> : null}
    </section>
  );
}
