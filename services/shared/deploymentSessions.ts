import session from "express-session";

type Stored = session.SessionData & { deployment?: string };
type Callback = (err?: unknown) => void;

/**
 * A session store that keeps one deployment's sessions apart from another's in the same store: every
 * session it writes carries the deployment id, and a session of another deployment (two portals
 * configured with one REDIS_PREFIX, or a cookie carried from one portal to another on the same host)
 * reads as no session at all, so its cookie signs nobody in here. Everything else is the inner
 * store's.
 */
export class DeploymentSessionStore extends session.Store {
  constructor(
    private readonly inner: session.Store,
    private readonly deployment: string,
  ) {
    super();
    for (const event of ["connect", "disconnect"]) inner.on(event, (...args) => this.emit(event, ...args));
  }

  private stamp(sess: session.SessionData): Stored {
    return { ...sess, deployment: this.deployment };
  }

  private own(sess: Stored | null | undefined): session.SessionData | null {
    if (!sess || sess.deployment !== this.deployment) return null;
    const { deployment: _deployment, ...rest } = sess;
    return rest;
  }

  override get(sid: string, callback: (err: unknown, session?: session.SessionData | null) => void): void {
    this.inner.get(sid, (err, sess) => {
      if (err) callback(err);
      else callback(null, this.own(sess));
    });
  }

  override set(sid: string, sess: session.SessionData, callback?: Callback): void {
    this.inner.set(sid, this.stamp(sess), callback);
  }

  override destroy(sid: string, callback?: Callback): void {
    this.inner.destroy(sid, callback);
  }

  override touch(sid: string, sess: session.SessionData, callback?: () => void): void {
    if (this.inner.touch) this.inner.touch(sid, this.stamp(sess), callback);
    else callback?.();
  }

  override length(callback: (err: unknown, length?: number) => void): void {
    this.all((err, sessions) => {
      if (err) callback(err);
      else callback(null, sessions ? Object.keys(sessions).length : 0);
    });
  }

  override all(
    callback: (
      err: unknown,
      obj?: session.SessionData[] | Record<string, session.SessionData> | null,
    ) => void,
  ): void {
    if (!this.inner.all) {
      callback(null, {});
      return;
    }
    this.inner.all((err, sessions) => {
      if (err) {
        callback(err);
        return;
      }
      if (Array.isArray(sessions)) {
        callback(
          null,
          sessions.flatMap((value) => this.own(value as Stored) ?? []),
        );
        return;
      }
      const mine: Record<string, session.SessionData> = {};
      for (const [key, value] of Object.entries(sessions ?? {})) {
        const own = this.own(value as Stored);
        if (own) mine[key] = own;
      }
      callback(null, mine);
    });
  }
}
