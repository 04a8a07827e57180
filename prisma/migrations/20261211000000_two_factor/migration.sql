-- Two-factor sign-in (issue 20): an authenticator app (TOTP, RFC 6238), passkeys (WebAuthn) and
-- single-use recovery codes, all the user service's. users."twoFactorEnabled" says whether the user
-- holds a confirmed authenticator or a passkey, so that every request's session user carries it.
ALTER TABLE "users" ADD COLUMN "twoFactorEnabled" BOOLEAN NOT NULL DEFAULT false;

-- The secret is sealed (services/shared/sealed.ts, sealSetting); "confirmedAt" is null while the
-- user has not yet confirmed a first code; "lastUsedStep" is the last time step accepted, so that a
-- code is never accepted twice.
CREATE TABLE "two_factor_authenticators" (
    "userId" INTEGER NOT NULL,
    "secretSealed" TEXT NOT NULL,
    "confirmedAt" TIMESTAMPTZ(3),
    "lastUsedStep" BIGINT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "two_factor_authenticators_pkey" PRIMARY KEY ("userId"),
    CONSTRAINT "two_factor_authenticators_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "passkeys" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "credentialId" TEXT NOT NULL,
    "publicKey" BYTEA NOT NULL,
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "name" TEXT NOT NULL,
    "backedUp" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    CONSTRAINT "passkeys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "passkeys_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "passkeys_credentialId_key" ON "passkeys"("credentialId");
CREATE INDEX "passkeys_userId_idx" ON "passkeys"("userId");

-- sha256 of each code (80 random bits: a slow hash adds nothing); "usedAt" once spent
CREATE TABLE "recovery_codes" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "codeHash" TEXT NOT NULL,
    "usedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "recovery_codes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "recovery_codes_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "recovery_codes_userId_codeHash_key" ON "recovery_codes"("userId", "codeHash");

-- The policy: off for the databases that exist (they keep working as they did); a new database's
-- seed sets the administrators' switch (on in production unless TWO_FACTOR_REQUIRED_FOR_ADMINS says
-- otherwise).
ALTER TABLE "security_settings"
ADD COLUMN "requireTwoFactorForAdmins" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "requireTwoFactorForEveryone" BOOLEAN NOT NULL DEFAULT false;
