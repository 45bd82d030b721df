// The public entry of the API keys feature (decision 054): Configurações shows its card.
export { ApiKeysCard } from "./components/api-keys-card";
