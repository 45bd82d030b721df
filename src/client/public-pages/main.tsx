import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "../styles/globals.css";
import { PublicApp } from "./public-app";

/**
 * The public pages' own small bundle (DESIGN.md §1, §6): /assinar/:token and /verificar/:code.
 * React, signature_pad and the shared document view only — no router, no query cache, no admin kit.
 */
const root = document.getElementById("root");
if (!root) throw new Error("#root not found");

createRoot(root).render(
  <StrictMode>
    <PublicApp pathname={window.location.pathname} />
  </StrictMode>,
);
