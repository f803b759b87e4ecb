/** A manager as the project forms offer them: who may be named the project's manager. */
export interface ManagerOption {
  id: number;
  email: string;
}
