import { builder } from "./builder";
import "./scalars";
import "./query";
import "./appError";
import "../modules/diagnostics/health";
import "../modules/diagnostics/serverConfig";
import "./mutation";
import "../modules/identity/user";
import "../modules/identity/userAccount";
import "../modules/identity/twoFactor";
import "../modules/identity/permissionCheck";
import "../modules/settings/branding";
import "../modules/appointments/appointment";
import "../modules/documents/storage";
import "../modules/documents/document";
import "../modules/sync/esrt";
import "../modules/sync/esrtApiKey";
import "../modules/users/userDirectory";
import "../modules/users/adminUser";
import "../modules/audit/audit";
import "../modules/dashboard/adminDashboard";
import "../modules/users/userJobs";
import "../modules/email/emailTemplates";
import "../modules/email/emailSettings";
import "../modules/diagnostics/diagnostics";
import "../modules/settings/security";

/** The portal's GraphQL schema, built once from the type files imported above. */
export const schema = builder.toSchema();
