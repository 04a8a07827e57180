import { zodResolver } from "@hookform/resolvers/zod";
import { type LoginInput, loginSchema } from "@schema/validation/user";
import type { Resolver } from "react-hook-form";

// The login form's validation, in a module of its own: the form loads it (and zod with it) on first
// focus, so /auth shows without it.

/** Validates the login form with the shared schema the server uses. */
export const loginResolver: Resolver<LoginInput> = zodResolver(loginSchema);
