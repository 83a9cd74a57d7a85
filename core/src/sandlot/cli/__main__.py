from sandlot.cli import main

main()
