import { type AckResult, type UserSnapshot, userSnapshotSchema } from "@schema/esrt/contract";
import type { Db, Tx } from "@services/shared/db";
import { AppError } from "@services/shared/errors";
import { emit } from "@services/shared/events";
import type { EsrtChannel } from "@services/shared/generated/prisma/enums";

// The sync state of each user (esrt_user_states): the latest snapshot and the version the Pro app
// has acknowledged. Every change of the pair raises `seq` and emits esrt.user_sync_changed, from
// which the user service keeps users.esrtSynced.

/** One user's sync state as stored. */
export interface UserSyncState {
  userId: number;
  uniqueId: string;
  snapshot: UserSnapshot;
  latestVersion: number;
  acknowledgedVersion: number;
  seq: number;
}

interface StateRow {
  userId: number;
  uniqueId: string;
  snapshot: unknown;
  latestVersion: number;
  acknowledgedVersion: number;
  seq: number;
}

function toState(row: StateRow): UserSyncState {
  return { ...row, snapshot: userSnapshotSchema.parse(row.snapshot) };
}

/** The text the dashboard's user filter searches: names, username, email and uniqueId. */
export function searchTextOf(snapshot: UserSnapshot): string {
  return [snapshot.firstName, snapshot.lastName, snapshot.username, snapshot.email, snapshot.uniqueId]
    .join(" ")
    .toLowerCase();
}

async function reportState(
  tx: Tx,
  state: Pick<UserSyncState, "userId" | "uniqueId" | "latestVersion" | "acknowledgedVersion" | "seq">,
): Promise<void> {
  await emit(
    tx,
    {
      type: "esrt.user_sync_changed",
      payload: {
        userId: state.userId,
        uniqueId: state.uniqueId,
        latestVersion: state.latestVersion,
        acknowledgedVersion: state.acknowledgedVersion,
        synced: state.acknowledgedVersion >= state.latestVersion,
        seq: state.seq,
      },
    },
    { actor: { kind: "system" } },
  );
}

/**
 * Records a user's snapshot when it is newer than the one held (a late or repeated event carrying
 * an older or the same version changes nothing) and reports the new state. Locks the user's state
 * row for the rest of the transaction.
 * @returns the new state, or null when the snapshot was not newer.
 */
export async function applySnapshot(
  tx: Tx,
  props: { userId: number; snapshot: UserSnapshot },
): Promise<UserSyncState | null> {
  const { userId, snapshot } = props;
  const rows = await tx.$queryRaw<StateRow[]>`
    INSERT INTO esrt_user_states ("userId", "uniqueId", snapshot, "latestVersion", "searchText")
    VALUES (${userId}, ${snapshot.uniqueId}, ${JSON.stringify(snapshot)}::jsonb, ${snapshot.version},
            ${searchTextOf(snapshot)})
    ON CONFLICT ("userId") DO UPDATE
      SET snapshot = EXCLUDED.snapshot, "latestVersion" = EXCLUDED."latestVersion",
          "uniqueId" = EXCLUDED."uniqueId", "searchText" = EXCLUDED."searchText",
          seq = esrt_user_states.seq + 1, "updatedAt" = now()
      WHERE esrt_user_states."latestVersion" < EXCLUDED."latestVersion"
    RETURNING "userId", "uniqueId", snapshot, "latestVersion", "acknowledgedVersion", seq`;
  const row = rows[0];
  if (!row) return null;
  const state = toState(row);
  await reportState(tx, state);
  return state;
}

/**
 * The user's state, locked for the rest of the transaction (deliveries of one user are made one
 * transaction at a time).
 */
export async function lockState(
  tx: Tx,
  where: { userId: number } | { uniqueId: string },
): Promise<UserSyncState | null> {
  const rows =
    "userId" in where
      ? await tx.$queryRaw<StateRow[]>`
          SELECT "userId", "uniqueId", snapshot, "latestVersion", "acknowledgedVersion", seq
          FROM esrt_user_states WHERE "userId" = ${where.userId} FOR UPDATE`
      : await tx.$queryRaw<StateRow[]>`
          SELECT "userId", "uniqueId", snapshot, "latestVersion", "acknowledgedVersion", seq
          FROM esrt_user_states WHERE "uniqueId" = ${where.uniqueId} FOR UPDATE`;
  return rows[0] ? toState(rows[0]) : null;
}

/**
 * The Pro app acknowledges a user's version (NATS ack, a webhook's 2xx answer or POST /api/esrt/ack).
 * An older or repeated acknowledgement changes nothing; a newer one is recorded and reported.
 * @throws AppError NOT_FOUND for an unknown uniqueId, CONFLICT for a version newer than the latest.
 */
export async function acknowledgeInTx(
  tx: Tx,
  props: { uniqueId: string; version: number; via: EsrtChannel },
): Promise<AckResult> {
  // the usual case in one statement: a newer version than the one acknowledged, up to the latest
  const advanced = await tx.$queryRaw<Omit<StateRow, "snapshot">[]>`
    UPDATE esrt_user_states
    SET "acknowledgedVersion" = ${props.version}, "acknowledgedAt" = now(),
        "acknowledgedVia" = ${props.via}::"EsrtChannel", seq = seq + 1, "updatedAt" = now()
    WHERE "uniqueId" = ${props.uniqueId} AND "acknowledgedVersion" < ${props.version}
      AND "latestVersion" >= ${props.version}
    RETURNING "userId", "uniqueId", "latestVersion", "acknowledgedVersion", seq`;
  const row = advanced[0];
  if (row) {
    await reportState(tx, row);
    return ackResult(row);
  }
  // otherwise an unknown user, a version above the latest, or an older or repeated acknowledgement
  const state = await lockState(tx, { uniqueId: props.uniqueId });
  if (!state) throw new AppError("NOT_FOUND", "User not found");
  if (props.version > state.latestVersion) {
    throw new AppError(
      "CONFLICT",
      `Version ${props.version} is newer than the user's latest version (${state.latestVersion})`,
    );
  }
  return ackResult(state);
}

/** What an acknowledgement answers for the state it left. */
function ackResult(
  state: Pick<UserSyncState, "uniqueId" | "latestVersion" | "acknowledgedVersion">,
): AckResult {
  return {
    uniqueId: state.uniqueId,
    acknowledgedVersion: state.acknowledgedVersion,
    latestVersion: state.latestVersion,
    esrtSynced: state.acknowledgedVersion >= state.latestVersion,
  };
}

/**
 * {@link acknowledgeInTx} in a transaction of its own.
 * @throws AppError NOT_FOUND, CONFLICT.
 */
export async function acknowledge(
  db: Db,
  props: { uniqueId: string; version: number; via: EsrtChannel },
): Promise<AckResult> {
  return db.prisma.$transaction((tx) => acknowledgeInTx(tx, props));
}
