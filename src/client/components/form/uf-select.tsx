import type * as React from "react";
import { UFS } from "@shared/reference/ufs";
import { NativeSelect } from "./native-select";

/** The 27 UFs by sigla, with an empty "UF" choice first. */
export function UfSelect(props: React.ComponentProps<typeof NativeSelect>) {
  return (
    <NativeSelect {...props}>
      <option value="">UF</option>
      {UFS.map((uf) => (
        <option key={uf.sigla} value={uf.sigla} title={uf.nome}>
          {uf.sigla}
        </option>
      ))}
    </NativeSelect>
  );
}
