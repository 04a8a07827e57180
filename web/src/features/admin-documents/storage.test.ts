import { storageSettingsSchema } from "@schema/validation/document";
import { formValuesOf, settingsInputOf } from "./storage";

const stored = {
  storageType: "cloud" as const,
  maxFileSize: 10_000_000,
  allowedFileTypes: ["pdf", "png"],
  cloudEndpoint: "http://127.0.0.1:9000",
  cloudRegion: "us-east-1",
  cloudBucket: "docs",
  cloudForcePathStyle: true,
  cloudAccessKeyId: "AKIA",
};

describe("the storage settings form", () => {
  it("starts from the stored settings with an empty secret, and keeps the stored secret when it stays empty", () => {
    const values = formValuesOf(stored);
    expect(values.cloudSecretAccessKey).toBe("");
    const checked = storageSettingsSchema.parse(values);
    const input = settingsInputOf(checked);
    expect(input).toEqual({ ...stored, allowedFileTypes: ["pdf", "png"] });
    expect("cloudSecretAccessKey" in input).toBe(false);
  });

  it("sends a new secret, and unset cloud fields as null for local storage", () => {
    const typed = storageSettingsSchema.parse({ ...formValuesOf(stored), cloudSecretAccessKey: "s3cret" });
    expect(settingsInputOf(typed).cloudSecretAccessKey).toBe("s3cret");
    const local = storageSettingsSchema.parse(
      formValuesOf({ ...stored, storageType: "local", cloudEndpoint: null, cloudBucket: null }),
    );
    expect(settingsInputOf(local)).toMatchObject({
      storageType: "local",
      cloudEndpoint: null,
      cloudBucket: null,
    });
  });

  it("asks for the cloud fields when cloud is chosen, with the spec's messages", () => {
    const result = storageSettingsSchema.safeParse(
      formValuesOf({
        ...stored,
        cloudEndpoint: null,
        cloudRegion: null,
        cloudBucket: null,
        cloudAccessKeyId: null,
      }),
    );
    expect(result.success ? [] : result.error.issues.map((i) => i.message)).toEqual([
      "Endpoint is required for cloud storage",
      "Region is required for cloud storage",
      "Bucket is required for cloud storage",
      "Access key is required for cloud storage",
    ]);
  });
});
