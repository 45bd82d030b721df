import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { Toaster } from "@/components/ui/sonner";
import { router } from "./app/router";
import { currentUserKey } from "./features/auth/api/auth-api";
import { ApiError } from "./lib/api";
import "./styles/globals.css";

/**
 * A session ended on the server (signed out elsewhere, expired, or the account deactivated by the
 * clinic's owner — decision 017): the next call answers 401 UNAUTHENTICATED, and the app forgets
 * the user, so the route guard sends the person to /auth.
 */
const onError = (error: unknown) => {
  if (error instanceof ApiError && error.status === 401 && error.code === "UNAUTHENTICATED") {
    queryClient.setQueryData(currentUserKey, null);
  }
  // Front-desk signing: the device is with the patient; only the unlock screen shows.
  if (
    error instanceof ApiError &&
    error.status === 423 &&
    error.code === "SESSION_LOCKED" &&
    window.location.pathname !== "/desbloquear"
  ) {
    void router.navigate("/desbloquear", { replace: true });
  }
};

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: { queries: { refetchOnWindowFocus: false } },
});

const root = document.getElementById("root");
if (!root) throw new Error("#root not found");

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>
  </StrictMode>,
);
