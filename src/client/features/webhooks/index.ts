// The public entry of the webhooks feature (decision 054): Configurações shows its card.
export { WebhooksCard } from "./components/webhooks-card";
