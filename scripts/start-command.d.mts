export interface StartCommand {
  env: Record<string, string>;
  flags: string[];
  entry: string;
  text: string;
}
export function startCommand(script?: string): StartCommand | null;
