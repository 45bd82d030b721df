import { describe, expect, it } from "vitest";
import { channelList } from "./channel-list";

describe("channelList", () => {
  it("joins the channels of a send in one pt-BR phrase", () => {
    expect(channelList([null, null])).toBe("");
    expect(channelList(["e-mail", null])).toBe("e-mail");
    expect(channelList(["e-mail", null, "SMS"])).toBe("e-mail e SMS");
    expect(channelList(["e-mail", "WhatsApp", "SMS"])).toBe("e-mail, WhatsApp e SMS");
  });
});
