// The page: the lobby, or (with ?table= and the seat's token in the fragment) a table.
import { CardcoreClient } from "@cardcore/client";
import { server } from "./dom.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { lang, w } from "./words.js";

const client = new CardcoreClient(server, { lang });
const root = document.getElementById("app")!;
const tableId = new URLSearchParams(location.search).get("table");
const token = new URLSearchParams(location.hash.slice(1)).get("token") ?? undefined;
document.documentElement.lang = lang;
document.title = w("app");

const other = lang === "ru" ? "en" : "ru";
const switcher = document.getElementById("lang") as HTMLAnchorElement | null;
if (switcher) {
  const query = new URLSearchParams(location.search);
  query.set("lang", other);
  switcher.href = `?${query}${location.hash}`;
  switcher.textContent = other === "ru" ? "Русский" : "English";
  switcher.title = w("language");
}

(tableId ? showTable(client, root, tableId, token) : showLobby(client, root)).catch((e: unknown) => {
  root.append(String(e));
  console.error(e);
});
