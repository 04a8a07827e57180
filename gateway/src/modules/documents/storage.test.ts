import {
  expectRefusals,
  graphqlClient,
  isolatedAppFixture,
  refusal,
  refusedCallers,
  signedInAs,
} from "@gateway/testing/fixtures";
import { DOCUMENT_MESSAGES, unknownFileTypeMessage } from "@schema/validation/document";
import { cloudStorageInput, localStorageInput } from "@services/document/testing";
import { config, setConfig } from "@services/shared/config";
import { type RunningS3rver, startS3rver } from "@services/shared/testing/s3rver";

// The storage settings fields on a database of their own (storage_config is read by every upload
// test of the run) and a real S3-protocol server for the connection test, on loopback: the
// development switch CONNECTION_TEST_ALLOW_PRIVATE lets the test reach it, except where the
// address rule is tested (issue 20).

const SECRET = "Gql-Secret-Key-7f3a9c1e5b";
let server: RunningS3rver;
const bodies: string[] = [];

const harness = isolatedAppFixture({
  settings: { CONNECTION_TEST_ALLOW_PRIVATE: true },
  beforeClose: async () => {
    await server.stop();
  },
});
beforeAll(async () => {
  server = await startS3rver();
});

const gql = graphqlClient(harness, bodies);

function signIn(userType: "client" | "prospect" | "userAdmin" | "mainAdmin"): Promise<string> {
  return signedInAs(harness, userType, { firstName: "Maria", lastName: `${userType} Admin` });
}

const SETTINGS = "{ storageSettings { storageType maxFileSize allowedFileTypes cloudSecretSet } }";
const UPDATE = `mutation ($input: StorageSettingsInput!) { updateStorageSettings(input: $input) {
  __typename
  ... on AppError { code message }
  ... on MutationUpdateStorageSettingsSuccess { data { storageType maxFileSize allowedFileTypes knownFileTypes
    cloudEndpoint cloudRegion cloudBucket cloudForcePathStyle cloudAccessKeyId cloudSecretSet updatedAt updatedBy
    usage { backend documents bytes } } }
} }`;
const TEST = `mutation ($input: StorageSettingsInput!) { testStorageConnection(input: $input) {
  __typename
  ... on AppError { code message }
  ... on MutationTestStorageConnectionSuccess { data { ok message latencyMs } }
} }`;

const cloudInput = (overrides: Record<string, unknown> = {}) => cloudStorageInput(server.settings, overrides);

describe("storage settings over GraphQL", () => {
  it("refuses the signed out, and users without manage:config", async () => {
    const cases = await refusedCallers(signIn, ["client", "prospect", "userAdmin"]);
    await expectRefusals(gql, cases, [
      [SETTINGS, "storageSettings"],
      [UPDATE, "updateStorageSettings", { input: localStorageInput() }],
      [TEST, "testStorageConnection", { input: cloudInput() }],
    ]);
    // nothing was changed by the refused calls
    expect(await harness.db.prisma.auditLog.count({ where: { action: "storage.settings_updated" } })).toBe(0);
  });

  it("answers the upload policy to clients (client, userAdmin, mainAdmin) but not prospects", async () => {
    const POLICY = "{ uploadPolicy { endpoint maxFileSize allowedFileTypes } }";
    expect(refusal(await gql(POLICY), "uploadPolicy")).toBe("UNAUTHENTICATED");
    expect(refusal(await gql(POLICY, await signIn("prospect")), "uploadPolicy")).toBe("FORBIDDEN");
    for (const userType of ["client", "userAdmin", "mainAdmin"] as const) {
      const res = await gql(POLICY, await signIn(userType));
      expect(res.data?.uploadPolicy).toEqual({
        endpoint: "/api/uploads",
        maxFileSize: expect.any(Number),
        allowedFileTypes: expect.any(Array),
      });
    }
  });

  it("refuses invalid settings with the shared schema's messages", async () => {
    const admin = await signIn("mainAdmin");
    const cases: [Record<string, unknown>, string][] = [
      [localStorageInput({ maxFileSize: 999_999 }), "Maximum file size must be at least 1,000,000 bytes"],
      [localStorageInput({ allowedFileTypes: [] }), "At least one file type must be allowed"],
      [localStorageInput({ allowedFileTypes: ["pdf", "exe"] }), unknownFileTypeMessage("exe")],
      [cloudInput({ cloudSecretAccessKey: null }), DOCUMENT_MESSAGES.secretRequired],
      [cloudInput({ cloudBucket: "" }), DOCUMENT_MESSAGES.bucketRequired],
    ];
    for (const [input, message] of cases) {
      const res = await gql(UPDATE, admin, { input });
      expect(res.data?.updateStorageSettings).toEqual({
        __typename: "AppError",
        code: "VALIDATION_FAILED",
        message,
      });
    }
    expect(unknownFileTypeMessage("exe")).toMatch(/^\.exe is not a file type the portal can verify/);
  });

  it("lets a mainAdmin switch to cloud and test the connection; the secret never comes back", async () => {
    const admin = await signIn("mainAdmin");
    const saved = await gql(UPDATE, admin, { input: cloudInput({ cloudSecretAccessKey: SECRET }) });
    expect(saved.errors).toBeUndefined();
    expect(saved.data?.updateStorageSettings).toMatchObject({
      __typename: "MutationUpdateStorageSettingsSuccess",
      data: {
        storageType: "cloud",
        maxFileSize: 20_000_000,
        allowedFileTypes: ["pdf", "png"],
        cloudBucket: server.settings.bucket,
        cloudSecretSet: true,
        updatedBy: "Maria mainAdmin Admin",
        usage: [
          { backend: "local", documents: 0, bytes: 0 },
          { backend: "cloud", documents: 0, bytes: 0 },
        ],
      },
    });
    const read = await gql(SETTINGS, admin);
    expect(read.data?.storageSettings).toEqual({
      storageType: "cloud",
      maxFileSize: 20_000_000,
      allowedFileTypes: ["pdf", "png"],
      cloudSecretSet: true,
    });

    const tested = await gql(TEST, admin, { input: cloudInput() });
    expect(tested.data?.testStorageConnection).toEqual({
      __typename: "MutationTestStorageConnectionSuccess",
      data: {
        ok: true,
        message: `Connected: wrote, read back and deleted a test object in bucket ${server.settings.bucket}`,
        latencyMs: expect.any(Number),
      },
    });
    const wrongBucket = await gql(TEST, admin, { input: cloudInput({ cloudBucket: "missing-bucket" }) });
    expect(wrongBucket.data?.testStorageConnection.data).toMatchObject({
      ok: false,
      message: "The bucket does not exist",
    });

    // with the development switch off, the store on loopback (or any internal address) is refused
    // as a typed error, and nothing is connected to
    const original = config();
    setConfig({ ...original, CONNECTION_TEST_ALLOW_PRIVATE: false });
    try {
      for (const cloudEndpoint of [
        server.settings.endpoint,
        "http://169.254.169.254",
        "http://[::7f00:1]:9000",
      ]) {
        const refused = await gql(TEST, admin, { input: cloudInput({ cloudEndpoint }) });
        expect([cloudEndpoint, refused.data?.testStorageConnection]).toEqual([
          cloudEndpoint,
          { __typename: "AppError", code: "VALIDATION_FAILED", message: DOCUMENT_MESSAGES.privateEndpoint },
        ]);
      }
    } finally {
      setConfig(original);
    }

    // a userAdmin cannot read it either; and no answer ever carried the secret
    expect(refusal(await gql(SETTINGS, await signIn("userAdmin")), "storageSettings")).toBe("FORBIDDEN");
    expect(bodies.filter((body) => body.includes(SECRET))).toEqual([]);
  });
});
