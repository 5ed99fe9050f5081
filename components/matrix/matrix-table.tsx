// The matrix table: rendered on the server from the tanstack model, no
// client script. Row headers name the service; column headers the environment.
import { flexRender, type Table } from "@tanstack/react-table";
import { cloneElement, isValidElement } from "react";
import type { MatrixEnvironment, MatrixRow } from "./matrix-types";

export function MatrixTable({ table, environments, caption }: { table: Table<MatrixRow>; environments: readonly MatrixEnvironment[]; caption: string }) {
  const production = new Set(environments.filter((e) => e.production).map((e) => `env:${e.name}`));
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Matrix">
      <table className="data mx">
        <caption className="sr">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className={header.column.id.startsWith("env:") ? "envh" : undefined}>
                  {flexRender(header.column.columnDef.header, header.getContext())}
                  {production.has(header.column.id) ? <span className="prod" title="Production environment">prod</span> : null}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {/* Each column's renderer returns its own <th> or <td>; a short key keeps React's payload small. */}
              {row.getVisibleCells().map((cell, i) => {
                const element = flexRender(cell.column.columnDef.cell, cell.getContext());
                return isValidElement(element) ? cloneElement(element, { key: i }) : null;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
