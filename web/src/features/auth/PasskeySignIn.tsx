import { Button } from "@blueprintjs/core";
import { Key } from "@blueprintjs/icons";
import { completeSignIn, useRestMutation, useRestSend } from "@web/data/rest";
import { passkeysAvailable, signWithPasskey } from "@web/features/two-factor/passkeyCeremony";
import { passkeyFailureMessage, UNREACHABLE_MESSAGE } from "@web/features/two-factor/passkeyMessages";
import { serverMessage } from "@web/lib/apiErrors";
import { isSignedInUser, type SignInAnswer } from "@web/lib/auth";
import { showToast } from "@web/lib/toast";
import { useState } from "react";

/** Props of {@link PasskeySignIn}. */
export interface PasskeySignInProps {
  /** the sign-in's answer: the signed-in user, or a step still to come */
  onAnswer(answer: SignInAnswer): void;
}

const failed = (description: string) =>
  showToast({ title: "Login failed", description, intent: "destructive" });

/**
 * "Sign in with a passkey" on /auth (issue 20): no username or password; the browser offers the
 * passkeys it keeps for the portal, and the one chosen signs its owner in (POST /api/login/passkey
 * with the answer to /api/login/passkey/options). Not shown by a browser without passkeys.
 */
export function PasskeySignIn({ onAnswer }: PasskeySignInProps) {
  const [busy, setBusy] = useState(false);
  const send = useRestSend();
  const signIn = useRestMutation<unknown, SignInAnswer>({
    request: (response) => ({ method: "POST", path: "/api/login/passkey", body: { response } }),
    onSuccess: (answer) => {
      if (isSignedInUser(answer)) completeSignIn(answer);
    },
    onError: (error) => failed(serverMessage(error, "The passkey was not accepted.")),
  });
  if (!passkeysAvailable()) return null;

  const handleClick = async () => {
    setBusy(true);
    try {
      let options: unknown;
      try {
        options = await send({ method: "POST", path: "/api/login/passkey/options", body: {} });
      } catch (error) {
        return failed(serverMessage(error, UNREACHABLE_MESSAGE));
      }
      let response: unknown;
      try {
        response = await signWithPasskey(options);
      } catch (error) {
        return failed(passkeyFailureMessage(error, "use"));
      }
      const answer = await signIn.run(response);
      if (answer) onAnswer(answer);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="portal-auth-alternatives">
      <Button
        icon={<Key />}
        text="Sign in with a passkey"
        loading={busy}
        onClick={() => void handleClick()}
      />
    </div>
  );
}
