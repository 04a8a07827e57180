import { z } from "zod";
import { esrtLabelSchema } from "./contract";

// The sync page's API-key form and the server share these (issue 10, Machine access for the Pro app).

/** An API key's name: what it is for, 1 to 200 characters. */
export const apiKeyNameSchema = esrtLabelSchema.min(1, "Name is required");

/** Making an API key. */
export const createApiKeySchema = z.object({ name: apiKeyNameSchema });

export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

/** What an API key looks like: "esrtk_" and 43 base64url characters (32 random bytes). */
export const API_KEY_PATTERN = /^esrtk_[A-Za-z0-9_-]{43}$/;
