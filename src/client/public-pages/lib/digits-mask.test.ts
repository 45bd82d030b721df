import { describe, expect, it } from "vitest";
import { maskCpf, maskPhone } from "@shared/br/masks";
import { caretAfterDigits, reformatDigits } from "./digits-mask";

/** Applies an edit the way the browser does: the text with "|" as the caret → value and caret. */
const edit = (withCaret: string, format: (raw: string) => string) => {
  const caret = withCaret.indexOf("|");
  const result = reformatDigits(withCaret.replace("|", ""), caret, format);
  return result.value.slice(0, result.caret) + "|" + result.value.slice(result.caret);
};

describe("digits mask (public pages)", () => {
  it("formats a CPF as it is typed, caret at the end", () => {
    expect(edit("1|", maskCpf)).toBe("1|");
    expect(edit("1234|", maskCpf)).toBe("123.4|");
    expect(edit("123.456.7890|", maskCpf)).toBe("123.456.789-0|");
    expect(edit("123.456.789-091|", maskCpf)).toBe("123.456.789-09|");
  });

  it("keeps the caret by the digit edited in the middle", () => {
    // A digit typed after the 2nd: the caret stays after the new 3rd digit, not at the end.
    expect(edit("125|3.456.789-0", maskCpf)).toBe("125|.345.678-90");
    // A digit deleted in the middle (backspace after "4").
    expect(edit("123.|56.789-09", maskCpf)).toBe("123|.567.890-9");
    // Backspace over a separator leaves the digits and moves the caret before it.
    expect(edit("123|456.789-09", maskCpf)).toBe("123|.456.789-09");
    // The first digit replaced by a select-all and a new digit.
    expect(edit("9|", maskCpf)).toBe("9|");
  });

  it("clears to empty with the caret at 0", () => {
    expect(edit("|", maskCpf)).toBe("|");
    expect(edit("|", maskPhone)).toBe("|");
  });

  it("formats a phone from 10 to 11 digits and keeps a middle caret", () => {
    expect(edit("11|", maskPhone)).toBe("(11|");
    expect(edit("(11) 3456-78901|", maskPhone)).toBe("(11) 34567-8901|");
    expect(edit("(11) 9|8765-4321", maskPhone)).toBe("(11) 9|8765-4321");
    expect(edit("(11) 97|8765-432", maskPhone)).toBe("(11) 97|876-5432");
  });

  it("drops a pasted +55 or trunk zero without shifting the caret", () => {
    expect(edit("+55 11 98765-4321|", maskPhone)).toBe("(11) 98765-4321|");
    expect(edit("(011) 3456-7890|", maskPhone)).toBe("(11) 3456-7890|");
  });

  it("ignores letters and places the caret after the n-th digit", () => {
    expect(edit("12a|3", maskCpf)).toBe("12|3");
    expect(caretAfterDigits("123.456", 0)).toBe(0);
    expect(caretAfterDigits("123.456", 4)).toBe(5);
    expect(caretAfterDigits("123.456", 9)).toBe(7);
  });
});
