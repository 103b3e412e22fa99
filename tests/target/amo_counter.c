int app_main(void){return 0;}
