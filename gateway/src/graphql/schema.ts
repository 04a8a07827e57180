import { builder } from "./builder";
import "./types/scalars";
import "./types/query";
import "./types/appError";
import "./types/health";
import "./types/serverConfig";
import "./types/mutation";
import "./types/user";
import "./types/userAccount";
import "./types/permissionCheck";
import "./types/branding";
import "./types/appointment";
import "./types/storage";
import "./types/document";
import "./types/esrt";
import "./types/esrtApiKey";
import "./types/userDirectory";
import "./types/adminUser";
import "./types/audit";
import "./types/adminDashboard";
import "./types/userJobs";
import "./types/emailTemplates";
import "./types/emailSettings";
import "./types/diagnostics";
import "./types/security";

/** The portal's GraphQL schema, built once from the type files imported above. */
export const schema = builder.toSchema();
