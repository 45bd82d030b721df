/** The channels of a send, in a sentence: "e-mail", "e-mail e SMS", "e-mail, WhatsApp e SMS". */
export function channelList(names: (string | null)[]): string {
  const list = names.filter((name): name is string => Boolean(name));
  return list.length <= 1 ? (list[0] ?? "") : `${list.slice(0, -1).join(", ")} e ${list.at(-1)}`;
}
