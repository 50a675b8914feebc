/** Dashboard login, account, members, API keys and request logs (bearer-token routes). */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { loginRoutes } from "./login";
import { sessionRoutes } from "./session";
import { accountRoutes } from "./account";
import { profileRoutes } from "./profile";
import { apiKeyRoutes } from "./api-keys";
import { requestLogRoutes } from "./request-logs";

export function authRoutes(deps: Deps) {
  return new Elysia()
    .use(loginRoutes(deps))
    .use(sessionRoutes(deps))
    .use(accountRoutes(deps))
    .use(profileRoutes(deps))
    .use(apiKeyRoutes(deps))
    .use(requestLogRoutes(deps));
}
